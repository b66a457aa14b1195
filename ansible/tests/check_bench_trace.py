#!/usr/bin/env python3
"""Checks a run of bench.yml on this machine with trace.io (tests/inventories/local, driven by ./check).

usage: check_bench_trace.py COMMANDS_LOG LOCAL_ROOT RESULTS_DIR BENCHMARK_ID SCENARIO HOSTS
bench.yml ran with ycsb_bench_properties {"trace.io": "load,run", "trace.io.processes": "dd"}, one
repetition, and the clients' stand-in bin/ycsb wrote and read 1 MiB with dd (direct I/O) in each
phase (GEOSHARD_LOCAL_IO_PROBE). HOSTS: the data-bearing hosts, comma-separated. Checked: no
trace.io property reached a client; every client's load and run folder on the controller holds
io/<host>.csv of every host, with the harness's columns, the phase as stage and dd's requests
timed within the phase's bin/ycsb call; the merged run has them too; no tracer is left running.
Prints PASS/FAIL lines (counted by ./check).
"""
import csv
import glob
import json
import os
import sys

# The harness's BlockRequest.CSV_HEADER (tests/check_io_trace.py checks the converter against it).
HEADER = ["epoch_ms", "stage", "device", "sector", "bytes", "op", "rwbs", "process", "pid", "latency_us"]
CLIENTS = ["local-client1", "local-client2"]
# Requests of the 64 the tracer may miss in a phase (see below): with 0.3% lost, 4 or more of 64
# happen once in about 25,000 phases.
LOST_OK = 3

commands_log, root, results, benchmark_id, scenario, hosts = sys.argv[1:7]
hosts = hosts.split(",")
failures = 0


def check(ok, what, detail=""):
    global failures
    failures += 0 if ok else 1
    print(("PASS " if ok else "FAIL ") + "bench trace.io %s: %s" % (scenario, what) + ("" if ok else "\n    " + str(detail)))


calls = [c for c in map(json.loads, open(commands_log, encoding="utf-8")) if "argv" in c]
check(not [c for c in calls if any(a.startswith("trace.io") for a in c["argv"])],
      "no trace.io property is handed to a client (the data-bearing hosts are traced instead)",
      [c["argv"] for c in calls if any(a.startswith("trace.io") for a in c["argv"])])
# The earliest and latest call of each phase, in epoch ms; dd runs right after its call starts.
window = {}
for phase in ("load", "run"):
    times = [c["time"] * 1000 for c in calls if c["argv"][0] == phase]
    check(len(times) == len(CLIENTS), "one %s per client" % phase, times)
    window[phase] = (min(times, default=0), max(times, default=0) + 120_000)


def check_folder(folder, stage, what):
    for host in hosts:
        path = os.path.join(folder, "io", host + ".csv")
        if not os.path.isfile(path):
            check(False, "%s holds io/%s.csv" % (what, host), sorted(glob.glob(os.path.join(folder, "**"), recursive=True)))
            continue
        with open(path, encoding="utf-8") as f:
            rows = list(csv.reader(f))
        check(rows[:1] == [HEADER], "io/%s.csv of %s has the harness's columns" % (host, what), rows[:1])
        data = [dict(zip(HEADER, r)) for r in rows[1:]]
        low, high = window[stage]
        check(bool(data) and all(r["stage"] == stage and r["process"] == "dd" for r in data),
              "io/%s.csv of %s holds dd's requests, stage %s" % (host, what, stage), rows[:5])
        moved = sum(int(r["bytes"]) for r in data if r["op"] in ("R", "W"))
        # Both clients wrote and read 1 MiB each in 64 KiB requests: 4 MiB reached the disk in the phase.
        # The tracer misses a few requests under load: outside Ansible, with one core kept busy, it
        # printed 9,577 of 9,604 requests of concurrent direct-I/O dd while the kernel's own
        # tracepoints counted all 9,604 started and issued (0.3%; the cause is not found). Up to
        # LOST_OK requests of the 64 may be missing; the label says how many were.
        missing = max(0, 4 * 1024 * 1024 - moved) // (64 * 1024)
        check(moved >= 4 * 1024 * 1024 - LOST_OK * 64 * 1024,
              "io/%s.csv of %s: dd's 4 MiB are there (%d bytes, %d of 64 requests missing, %d allowed)"
              % (host, what, moved, missing, LOST_OK))
        check(all(low - 1000 <= float(r["epoch_ms"]) <= high for r in data),
              "io/%s.csv of %s: the requests' times fall within the phase's calls" % (host, what),
              [r["epoch_ms"] for r in data[:3]] + [low, high])


for client in CLIENTS:
    base = os.path.join(results, scenario, client)
    loads = sorted(glob.glob(os.path.join(base, "load", "*", "run.json")))
    check(len(loads) == 1, "%s fetched one load run folder" % client, loads)
    if loads:
        check_folder(os.path.dirname(loads[0]), "load", "%s's load" % client)
    check_folder(os.path.join(base, "default", "run-1"), "run", "%s's run-1" % client)
check_folder(os.path.join(results, scenario, "merged", "default", "run-1"), "run", "the merged run-1")
left = [p for host in hosts for p in glob.glob(os.path.join(root, host, "io-trace", "bpftrace.pid"))]
check(not left, "every tracer was stopped (no process id file left)", left)
sys.exit(1 if failures else 0)
