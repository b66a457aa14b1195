#!/usr/bin/env python3
"""Checks what study.yml ran (recorded by tests/fake-ansible-playbook).

usage: check_study.py RECORD PLATFORM INVENTORY SCENARIO...
CHECK_STUDY_TRACE_IO=PHASES: study.yml ran with geoshard_study_trace_io=PHASES, which every bench.yml
step (and no other step) must get as ycsb_bench_trace_io.
"""
import os
import sys

record, platform, inventory = sys.argv[1:4]
scenarios = sys.argv[4:]
lines = [line.rstrip("\n").split("|") for line in open(record, encoding="utf-8")]
steps = (["provision-ec2.yml"] if platform == "ec2" else []) + ["deploy.yml", "bench.yml", "teardown.yml"]
want = [(scenario, step) for scenario in scenarios for step in steps]
got = []
problems = []
trace_io = os.environ.get("CHECK_STUDY_TRACE_IO", "")
for args, mode, keys, named, log in lines:
    words = args.split()
    handed = [w.split("=", 1)[1] for w in words if w.startswith("ycsb_bench_trace_io=")]
    if handed != ([trace_io] if trace_io and words[0] == "bench.yml" else []):
        problems.append("trace.io handed to %s: %s" % (words[0], handed))
    scenario = next((w.split("=", 1)[1] for w in words if w.startswith("geoshard_scenario=")), None)
    got.append((scenario, words[0]))
    if os.path.realpath(words[words.index("-i") + 1]) != os.path.realpath(inventory):
        problems.append("inventory of %s: %s" % (words[0], args))
    # A private file without a name on disk: nothing is left behind when the study is killed.
    if mode != "mode=600" or keys != "keys=geoshard_mongodb_admin_password,geoshard_mongodb_bench_password" \
            or named != "named=no":
        problems.append("secrets handed to %s %s: %s %s %s" % (scenario, words[0], mode, keys, named))
    if not log.endswith("/%s/ansible-%s.log" % (scenario, words[0].split(".")[0].replace("-ec2", ""))):
        problems.append("log of %s %s: %s" % (scenario, words[0], log))
if got != want:
    problems.append("steps %s, want %s" % (got, want))
ok = not problems
print(("PASS " if ok else "FAIL ") + "study.yml on %s runs %s for %s, secrets in a private file without a name on disk%s" % (
    platform, " -> ".join(steps), ", ".join(scenarios), ", trace.io %s to bench.yml" % trace_io if trace_io else "")
      + "".join("\n    " + p for p in problems))
sys.exit(0 if ok else 1)
