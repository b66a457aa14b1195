#!/usr/bin/env python3
"""Checks the block-I/O trace that the role io_trace took on the Debian 12 guest (tests/guest.yml,
tag io_trace): dd wrote and read 4 MiB with direct I/O while it traced.

usage: check_guest_trace.py IO_DIR
IO_DIR holds guest.csv, guest.json (probes, never completed) and versions.txt (uname -r, bpftrace
--version of the guest, the major:minor of the device dd wrote to). Checked: the guest's kernel has no
block_io_start (before 6.5), so the role chose block_getrq/block_rq_complete; the trace has dd's 4 MiB
each way in the harness's columns, counted on dd's device and without the file system's metadata
(rwbs M) or read-ahead (rwbs A: dd's own binary, read from the root disk); the requests never
completed are counted. Prints PASS/FAIL lines (counted by ./check) with what it measured.
"""
import csv
import json
import os
import sys

HEADER = ["epoch_ms", "stage", "device", "sector", "bytes", "op", "rwbs", "process", "pid", "latency_us"]
MIB4 = 4 << 20
failures = 0


def check(ok, what, detail=""):
    global failures
    failures += 0 if ok else 1
    print(("PASS " if ok else "FAIL ") + "guest io_trace: " + what + ("" if ok else "\n    " + str(detail)))


io_dir = sys.argv[1]
paths = {name: os.path.join(io_dir, name) for name in ("guest.csv", "guest.json", "versions.txt")}
missing = [p for p in paths.values() if not os.path.isfile(p)]
if missing:
    check(False, "the trace was fetched", missing)
    sys.exit(1)
kernel, bpftrace, device = [line.strip() for line in
                            (open(paths["versions.txt"], encoding="utf-8").read().split("\n") + ["", ""])[:3]]
side = json.load(open(paths["guest.json"], encoding="utf-8"))
with open(paths["guest.csv"], encoding="utf-8") as f:
    rows = list(csv.reader(f))
data = [dict(zip(HEADER, r)) for r in rows[1:]]
dd = [r for r in data if r["process"] == "dd"]
payload = [r for r in dd if r["device"] == device and not set(r["rwbs"]) & {"M", "A"}]
written = sum(int(r["bytes"]) for r in payload if r["op"] == "W")
read = sum(int(r["bytes"]) for r in payload if r["op"] == "R")
other = sum(int(r["bytes"]) for r in dd) - written - read
never = side.get("neverCompleted")
check(kernel.startswith("6.1."), f"the guest runs its own kernel ({kernel}, {bpftrace})", kernel)
check(side.get("probes") == ["block_getrq", "block_bio_frontmerge", "block_rq_issue", "block_rq_complete"],
      f"the role chose the older tracepoints there: {side.get('probes')}", side)
check(rows[:1] == [HEADER], "the trace has the harness's columns", rows[:1])
check(isinstance(never, int) and 0 <= never <= 3,
      f"dd's requests traced on {kernel}: {len(data)} requests, {written} bytes written, {read} read, "
      f"{never} started but never completed", side)
check(written == MIB4 and read == MIB4,
      f"dd's 4 MiB each way on {device}, sizes taken at issue (besides: {other} bytes of metadata and read-ahead)",
      (written, read, device))
sys.exit(1 if failures else 0)
