#!/usr/bin/env python3
"""ansible-inventory --graph assertions: each scenario yields exactly the groups it needs.

usage: check_inventory.py INVENTORY KIND [BENCHMARK_ID]
  KIND: lab | ec2-static | replsets | ec2-dynamic (then BENCHMARK_ID and the scenarios provisioned as
  <BENCHMARK_ID>-<n>, see ./check). Prints one PASS/FAIL line per scenario.
"""
import os
import subprocess
import sys

import expected


def graph(inventory, extra):
    cmd = [os.path.join(os.path.dirname(sys.executable), "ansible-inventory"), "-i", inventory, "--graph"]
    for name, value in extra.items():
        cmd += ["-e", "%s=%s" % (name, value)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    groups, stack = {}, []
    for line in out.splitlines():
        depth = (len(line) - len(line.lstrip(" |"))) // 3
        name = line.strip(" |-").rstrip(":")
        stack = stack[:depth]
        if name.startswith("@"):
            stack.append(name[1:])
            groups.setdefault(name[1:], set())
        elif stack:
            groups[stack[-1]].add(name)
    return groups


def main():
    inventory, kind = sys.argv[1], sys.argv[2]
    failures = 0
    for scenario in expected.scenarios(kind):
        extra = {"geoshard_scenario": scenario}
        if kind != "ec2-dynamic":
            want = expected.for_kind(kind, scenario)
        else:
            benchmark_id = "%s-%d" % (sys.argv[3], expected.SCENARIOS.index(scenario))
            extra["geoshard_benchmark_id"] = benchmark_id
            want = expected.ec2_provisioned(benchmark_id, scenario)
        got = graph(inventory, extra)
        problems = []
        for group, hosts in want.items():
            if set(hosts) != got.get(group, set()):
                problems.append("%s: want %s, got %s" % (group, sorted(hosts), sorted(got.get(group, set()))))
        scenario_group = "scenario_" + scenario.replace("-", "_")
        members = set().union(*want.values()) | {"localhost"}
        if not members <= got.get(scenario_group, set()):
            problems.append("%s lacks %s" % (scenario_group, sorted(members - got.get(scenario_group, set()))))
        others = [g for g in got if g.startswith("scenario_") and g != scenario_group and got[g]]
        if others:
            problems.append("other scenario groups populated: %s" % others)
        label = "inventory %s (%s) scenario %s yields %s" % (inventory, kind, scenario, ", ".join(
            "%s=%d" % (g.replace("geoshard_", ""), len(h)) for g, h in want.items() if h))
        if problems:
            failures += 1
            print("FAIL " + label)
            for problem in problems:
                print("    " + problem)
        else:
            print("PASS " + label)
    # Without a scenario nothing is targeted (the playbooks stop in their preflight).
    extra = {} if kind != "ec2-dynamic" else {"geoshard_benchmark_id": "%s-0" % sys.argv[3]}
    got = graph(inventory, extra)
    populated = [g for g in expected.GROUPS if got.get(g)]
    if populated:
        failures += 1
        print("FAIL inventory %s without a scenario targets nothing (got %s)" % (inventory, populated))
    else:
        print("PASS inventory %s without a scenario targets nothing" % inventory)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
