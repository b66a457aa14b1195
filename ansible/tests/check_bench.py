#!/usr/bin/env python3
"""Checks one run of bench.yml on this machine (tests/inventories/local, driven by ./check).

usage: check_bench.py MODE COMMANDS_LOG LOCAL_ROOT RESULTS_DIR SCENARIO [RUNS] [VARIANTS_JSON]
  MODE  first   prepare on the first client, a split load on both, every variant and
                repetition 1..RUNS on both clients; run folders, logs, merged runs, runs.json
                and the report on the controller; the load marker next to the data;
        resume  a second bench.yml with the marker in place and one more repetition: no
                prepare, no load, only repetition RUNS, merged;
        reload  a second bench.yml after the data (and its marker) went away: prepare and
                load again, no run again (every repetition's run folder is there).
The expected command lines come from group_vars/scenario_<name>.yml, not from the role.
CHECK_BENCH_REPORT=0: bench.yml ran with results_report_make_report=false (no report to look for).
CHECK_BENCH_RERUN=N (resume): repetition N of the first variant had a crashed run.json planted in the
first client's folder: it must have run again on both clients, each earlier folder set aside (the
planted one as run-N.failed-<time>, the other client's as run-N.unpaired-<time>), on the clients and on
the controller, where the merge of the earlier ones is set aside too and the new merge is of the new runs.
CHECK_BENCH_BALANCER=FILE: bench.yml ran with mongodb.balancer=pause on two clients and recorded its
balancer calls in FILE (ycsb_bench_balancer_log): the clients got mongodb.balancer=leave, and the
balancer was stopped once before each step started on any client and started once after it ended on all.
CHECK_BENCH_LOAD_COOLDOWN=S (first, reload): the first repetition after the load started S seconds or
more (plus the start lead) after the last load ended; BENCH_OUTPUT (the playbook's output) announces it.
In resume mode, BENCH_OUTPUT must not announce a cool-down (nothing was loaded).
CHECK_BENCH_COMMIT: the commit the clients' tree was archived from; every run folder of this
bench.yml must record it (versions.gitCommit, 12 hex digits).
"""
import glob
import json
import os
import re
import sys

import yaml

BENCHMARK_ID = "localcheck"
CLIENTS = ["local-client1", "local-client2"]

mode, commands_log, root, results, scenario = sys.argv[1:6]
settings = yaml.safe_load(open("group_vars/scenario_%s.yml" % scenario.replace("-", "_")))
runs = int(sys.argv[6]) if len(sys.argv) > 6 else int(settings["ycsb_bench_runs"])
variants = json.loads(sys.argv[7]) if len(sys.argv) > 7 else settings["ycsb_bench_variants"]
workload, binding, collection = (settings[k] for k in ("ycsb_bench_workload", "ycsb_bench_binding", "ycsb_bench_collection"))
failures = 0


def check(ok, what, detail=""):
    global failures
    failures += 0 if ok else 1
    print(("PASS " if ok else "FAIL ") + "bench %s/%s: %s" % (scenario, mode, what) + ("" if ok else "\n    " + str(detail)))


def client_dir(client):
    return os.path.join(root, client, "var/lib/geoshard/results", BENCHMARK_ID, scenario)


BALANCER_LOG = os.environ.get("CHECK_BENCH_BALANCER")
RERUN = int(os.environ.get("CHECK_BENCH_RERUN", "0"))


def common(client):
    return (["-P", "workloads/" + workload, "-P", os.path.join(root, client, "etc/geoshard/ycsb-connection.properties")]
            + (["-p", "mongodb.balancer=leave"] if BALANCER_LOG else []) + ["-p", "mongodb.collection=" + collection])


def label(variant):
    return scenario if variant == "default" else scenario + "-" + variant


entries = [json.loads(line) for line in open(commands_log, encoding="utf-8")]
calls = [e["argv"] for e in entries if "argv" in e]
by_phase = {phase: [c for c in calls if c[0] == phase] for phase in ("preflight", "prepare", "load", "run")}
check(len(calls) == sum(len(v) for v in by_phase.values()), "every bin/ycsb call is a preflight, prepare, load or run", calls)

# Prepare and load.
loading = mode in ("first", "reload")
stamps = set()
if loading:
    prepares = by_phase["prepare"]
    ok = len(prepares) == 1 and prepares[0][:2] == ["prepare", binding] and prepares[0][2:2 + len(common(CLIENTS[0]))] == common(CLIENTS[0])
    stamp = re.search(r"/prepare/(\d{8}T\d{6}Z)$", prepares[0][-1]) if len(prepares) == 1 else None
    ok = ok and stamp is not None and prepares[0][-4:-1] == ["-p", "results.label=%s-prepare" % scenario, "-p"]
    check(ok, "one prepare, on the first client, with the workload, connection file and collection", prepares)
    if stamp:
        stamps.add(stamp.group(1))
    loads = sorted(by_phase["load"], key=lambda c: c[-1])
    want = []
    for index, client in enumerate(CLIENTS):
        want.append(["load", binding] + common(client)
                    + ["-p", "insertstart=%d" % (200 * index), "-p", "insertcount=200", "-threads", "32",
                       "-p", "results.label=%s-load" % scenario, "-p",
                       "results.dir=%s/load/%s" % (client_dir(client), stamp.group(1) if stamp else "?")])
    check(loads == want, "both clients load their half (insertstart/insertcount) into load/<time>", loads)
    for client in CLIENTS:
        folder = os.path.join(results, scenario, client, "load", stamp.group(1) if stamp else "?")
        check(os.path.isfile(os.path.join(folder, "run.json")), "%s's load run folder fetched to the controller" % client, folder)
    prepared = os.path.join(results, scenario, CLIENTS[0], "prepare", stamp.group(1) if stamp else "?", "run.json")
    check(os.path.isfile(prepared), "the prepare run folder fetched to the controller", prepared)
    check(by_phase["preflight"] == [["preflight", binding] + common(CLIENTS[0]) + ["--json"]],
          "one preflight before the load, on the first client, with the workload, connection file and collection",
          by_phase["preflight"])
    answer = os.path.join(results, scenario, CLIENTS[0], "preflight", (stamp.group(1) if stamp else "?") + ".json")
    kept = json.load(open(answer)) if os.path.isfile(answer) else None
    check(isinstance(kept, list) and kept and kept[0].get("name") == "first contact",
          "the preflight's checks kept in preflight/<time>.json and fetched to the controller", answer)
else:
    check(not by_phase["prepare"] and not by_phase["load"] and not by_phase["preflight"],
          "no preflight, prepare or load: the marker says the data is there",
          by_phase["preflight"] + by_phase["prepare"] + by_phase["load"])

if mode == "reload":
    earlier = glob.glob(os.path.join(results, scenario, CLIENTS[0], "load", "*", "run.json"))
    check(len(earlier) == 2, "the earlier load's run folder is kept beside the new one", earlier)

marker_host, instance = ("local-shard1", "standalone") if scenario == "0s" else ("local-cfg1", "configsvr")
marker = os.path.join(root, marker_host, "var/lib/mongodb", instance, "geoshard-loaded.json")
if os.path.isfile(marker):
    content = json.load(open(marker))
    check(content.get("benchmark_id") == BENCHMARK_ID and content.get("scenario") == scenario
          and content.get("clients") == CLIENTS, "the load marker sits in %s's data directory" % marker_host, content)
else:
    check(False, "the load marker sits in %s's data directory" % marker_host, marker + " is missing")

# Runs: the exact command lines, one per client, variant and repetition.
repetitions = (sorted({runs, RERUN} - {0}) if mode == "resume"
               else ([] if mode == "reload" else list(range(1, runs + 1))))
want = []
for variant in variants:
    for n in repetitions:
        for client in CLIENTS:
            line = ["run", binding] + common(client)
            for name, value in sorted(variant.get("properties", {}).items()):
                line += ["-p", "%s=%s" % (name, value)]
            if "threads" in variant:
                line += ["-threads", str(variant["threads"])]
            line += ["-p", "results.label=" + label(variant["name"]),
                     "-p", "results.dir=%s/%s/run-%d" % (client_dir(client), variant["name"], n)]
            want.append(line)
got = by_phase["run"]
check(sorted(got) == sorted(want), "%d run command lines as the scenario's variants and repetitions %s say"
      % (len(want), repetitions), {"missing": [w for w in want if w not in got], "unexpected": [g for g in got if g not in want]})

for variant in variants:
    for n in repetitions:
        name = "%s-run-%d" % (variant["name"], n)
        handed = set()
        for client in CLIENTS:
            folder = os.path.join(results, scenario, client, variant["name"], "run-%d" % n)
            record = json.load(open(os.path.join(folder, "run.json"))) if os.path.isfile(os.path.join(folder, "run.json")) else {}
            check(record.get("label") == label(variant["name"]), "%s's %s fetched, label %s" % (client, name, label(variant["name"])),
                  folder + ": " + str(record.get("label")))
            if os.environ.get("CHECK_BENCH_COMMIT"):
                recorded = record.get("versions", {}).get("gitCommit")
                check(recorded == os.environ["CHECK_BENCH_COMMIT"][:12],
                      "%s's %s records the commit of its archived tree" % (client, name), recorded)
            log = os.path.join(results, scenario, client, "logs", name + ".log")
            text = open(log).read() if os.path.isfile(log) else ""
            # The log is appended to: a repetition run again holds both starts, the last one is this run's.
            handed |= set(re.findall(r"start-at (\d+);", text)[-1:])
        check(len(handed) == 1, "%s: both clients were handed one start time" % name, handed)
        merged = os.path.join(results, scenario, "merged", variant["name"], "run-%d" % n, "run.json")
        check(os.path.isfile(merged), "%s merged from both clients on the controller" % name, merged)

listing = os.path.join(results, scenario, "runs.json")
listed = json.load(open(listing)) if os.path.isfile(listing) else {"runs": []}
want_listed = sorted((label(v["name"]), "%s/merged/%s/run-%d" % (scenario, v["name"], n))
                     for v in variants for n in range(1, runs + 1))
got_listed = sorted((r["label"], r["dir"]) for r in listed["runs"])
check(got_listed == want_listed and not listed.get("missing"), "runs.json lists the merged run of every repetition", got_listed)
report = os.path.join(results, scenario, "report", "report.md")
if mode != "reload" and os.environ.get("CHECK_BENCH_REPORT", "1") == "1":
    text = open(report).read() if os.path.isfile(report) else ""
    check(all(label(v["name"]) in text for v in variants), "the report, built on the controller, names the scenario's runs", report)

# A repetition run again: the earlier folders set aside, kept, not merged; the new merge made of the new runs.
if RERUN:
    name = variants[0]["name"]
    for client, kind in zip(CLIENTS, ("failed", "unpaired")):
        for where, base in (("client", client_dir(client)), ("controller", os.path.join(results, scenario, client))):
            aside = glob.glob(os.path.join(base, name, "run-%d.%s-*" % (RERUN, kind), "run.json"))
            record = json.load(open(aside[0])) if len(aside) == 1 else {}
            planted = record.get("status") == "running"
            check(len(aside) == 1 and planted == (kind == "failed"),
                  "%s's earlier %s-run-%d set aside on the %s as run-%d.%s-<time>" % (client, name, RERUN, where, RERUN, kind),
                  sorted(glob.glob(os.path.join(base, name, "run-%d*" % RERUN))))
        fresh = os.path.join(results, scenario, client, name, "run-%d" % RERUN, "run.json")
        record = json.load(open(fresh)) if os.path.isfile(fresh) else {}
        check(record.get("status") == "finished", "%s's %s-run-%d ran again and ended well" % (client, name, RERUN),
              record.get("status"))
    merged_dir = os.path.join(results, scenario, "merged", name)
    check(len(glob.glob(os.path.join(merged_dir, "run-%d.failed-*" % RERUN, "run.json"))) == 1,
          "the merge of the earlier %s-run-%d set aside on the controller" % (name, RERUN), sorted(os.listdir(merged_dir)))
    merged = os.path.join(merged_dir, "run-%d" % RERUN, "run.json")
    new_starts = sorted(json.load(open(os.path.join(results, scenario, c, name, "run-%d" % RERUN, "run.json"))).get("startTime", "")
                        for c in CLIENTS if os.path.isfile(os.path.join(results, scenario, c, name, "run-%d" % RERUN, "run.json")))
    merged_start = json.load(open(merged)).get("startTime", "") if os.path.isfile(merged) else ""
    check(bool(new_starts) and merged_start >= new_starts[0],
          "the merged %s-run-%d is the merge of the new runs (starts %s, the new runs %s)" % (name, RERUN, merged_start, new_starts))
    listing = json.load(open(os.path.join(results, scenario, "runs.json")))
    check(not [r for r in listing["runs"] if ".failed-" in r["dir"] or any(".failed-" in x or ".unpaired-" in x for x in r["sources"])],
          "runs.json lists no set-aside folder", listing["runs"])

# Each load and run step of this bench.yml: its name (load-<time>, <variant>-run-<n>) and the start and
# end of the stand-in's call on each client.
spans = {}
for start in entries:
    phase = start.get("argv", [""])[0]
    if phase not in ("load", "run"):
        continue
    end = next((e["end"] for e in entries if e.get("id") == start["id"] and "end" in e), float("inf"))
    folder = next(a.split("=", 1)[1] for a in start["argv"] if a.startswith("results.dir="))
    variant_dir, leaf = folder.rsplit("/", 2)[-2:]
    spans.setdefault("load-" + leaf if phase == "load" else "%s-%s" % (variant_dir, leaf), []).append((start["time"], end))

# The balancer: paused once around each step, from the controller.
if BALANCER_LOG:
    calls_by_step = {}
    for entry in map(json.loads, open(BALANCER_LOG, encoding="utf-8") if os.path.isfile(BALANCER_LOG) else []):
        calls_by_step.setdefault(entry["step"], []).append(entry)
    check(sorted(calls_by_step) == sorted(spans), "the balancer was paused around every step, and only those",
          {"balancer": sorted(calls_by_step), "steps": sorted(spans)})
    for step, span in sorted(spans.items()):
        made = calls_by_step.get(step, [])
        states = [c["state"] for c in made]
        check(states == ["stopped", "started"] and made[0]["time"] <= min(s for s, _ in span)
              and made[1]["time"] >= max(e for _, e in span),
              "%s: the balancer stopped once before any client started and started once after all ended" % step,
              {"calls": made, "clients": span})

# The cool-down after a load.
# The playbook's output with its lines unwrapped (the yaml callback folds long messages).
output = " ".join(open(os.environ["BENCH_OUTPUT"], encoding="utf-8").read().split()) if os.environ.get("BENCH_OUTPUT") else None
if os.environ.get("CHECK_BENCH_LOAD_COOLDOWN"):
    cooldown = float(os.environ["CHECK_BENCH_LOAD_COOLDOWN"])
    lead = float(yaml.safe_load(open("tests/inventories/local/hosts.yml"))["all"]["vars"]["ycsb_bench_start_delay_s"])
    order = sorted(spans, key=lambda step: min(start for start, _ in spans[step]))
    gaps = {(a, b): min(start for start, _ in spans[b]) - max(end for _, end in spans[a]) for a, b in zip(order, order[1:])}
    after_load = [gap for (a, _), gap in gaps.items() if a.startswith("load-")]
    between_runs = [gap for (a, _), gap in gaps.items() if not a.startswith("load-")]
    # The playbook's own time between two steps varies by seconds on a busy machine: the gap after the
    # load must exceed the cool-down plus the start lead, and every gap between repetitions (no
    # cool-down there) by the cool-down less 5 s.
    check(len(after_load) == 1 and after_load[0] >= cooldown + lead - 1
          and after_load[0] - max(between_runs, default=0) >= cooldown - 5,
          "the first repetition started %s s after the load ended (cool-down %g s, start lead %g s; between repetitions %s s)"
          % (["%.1f" % g for g in after_load], cooldown, lead, ["%.1f" % g for g in between_runs]))
    check(output is not None and "Cooling down %d s after the load" % cooldown in output,
          "the cool-down after the load is announced", "no 'Cooling down' in the output")
if mode == "resume" and output is not None:
    check("Cooling down" not in output, "no cool-down on a resume without a load", "the output announces one")
sys.exit(1 if failures else 0)
