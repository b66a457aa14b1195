#!/usr/bin/env python3
"""Static rules for what EC2 instances need at boot and right after it (run from ansible/):
  - the data disk's fstab line always has nofail (the mount task's options, rendered with the
    role's default options and with overrides that leave it out);
  - provision-ec2.yml waits, after the instances, for cloud-init with a timeout, and says so;
  - every play that reaches an apt task (through its roles, transitively) makes apt wait for the
    dpkg lock for geoshard_apt_lock_timeout_s, which is longer on EC2 than apt's own 60 s.
Prints one PASS/FAIL line per rule.
"""
import glob
import os
import sys

import jinja2
import yaml

results = []
APT = ("ansible.builtin.apt", "apt")
INCLUDES = ("ansible.builtin.include_role", "ansible.builtin.import_role", "include_role", "import_role")


def check(label, ok, detail=""):
    results.append(ok)
    print(("PASS " if ok else "FAIL ") + label + ("" if ok or not detail else "\n    " + str(detail)))


def load(path):
    with open(path, encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def walk(node):
    """Every mapping inside node (tasks, blocks, plays)."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from walk(value)


def roles_named(node):
    """(role, tasks file or None for the whole role) of every include or import inside node."""
    names = set()
    for item in walk(node):
        for key in INCLUDES:
            if isinstance(item.get(key), dict):
                names.add((item[key]["name"], item[key].get("tasks_from")))
    return names


def role_uses_apt(role, tasks_from=None, seen=None):
    seen = set() if seen is None else seen
    if (role, tasks_from) in seen:
        return False
    seen.add((role, tasks_from))
    # A role included for one tasks file (tasks_from) reaches only what that file does.
    pattern = (tasks_from if tasks_from.endswith(".yml") else tasks_from + ".yml") if tasks_from else "*.yml"
    for path in glob.glob(os.path.join("roles", role, "tasks", pattern)):
        tasks = load(path) or []
        if any(key in item for item in walk(tasks) for key in APT):
            return True
        if any(role_uses_apt(other, other_from, seen) for other, other_from in roles_named(tasks)):
            return True
    return False


def nofail():
    tasks = load("roles/os_tuning/tasks/disk.yml")
    mount = [t for t in tasks if "ansible.posix.mount" in t]
    defaults = load("roles/os_tuning/defaults/main.yml")
    problems = []
    for options in (defaults["os_tuning_data_mount_options"], "noatime", "defaults,nofail", "defaults"):
        for task in mount:
            rendered = jinja2.Environment().from_string(task["ansible.posix.mount"]["opts"]).render(
                os_tuning_data_mount_options=options)
            if "nofail" not in rendered.split(","):
                problems.append("%r -> %r" % (options, rendered))
    check("the data disk's fstab line has nofail whatever os_tuning_data_mount_options says (os_tuning/tasks/disk.yml)",
          bool(mount) and not problems, problems or "no ansible.posix.mount task")


def cloud_init():
    plays = load("provision-ec2.yml")
    provision = [n for n, p in enumerate(plays) if "ec2_cluster" in str(p.get("roles", ""))]
    waits = []
    for n, play in enumerate(plays):
        if not provision or n <= provision[0] or "pool_shard" not in str(play.get("hosts", "")):
            continue
        for task in play.get("tasks", []):
            argv = (task.get("ansible.builtin.command") or {}).get("argv", []) if isinstance(
                task.get("ansible.builtin.command"), dict) else []
            named = task["name"].endswith("timeout in seconds {{ geoshard_cloud_init_timeout_s }}")
            if argv[:1] == ["timeout"] and argv[2:] == ["cloud-init", "status", "--wait"] and named:
                waits.append(task["name"])
    check("provision-ec2.yml waits for cloud-init on the new instances, with a timeout it names", bool(waits),
          "no task of a play on the pools after the provisioning runs [timeout, N, cloud-init, status, --wait]")


def apt_lock():
    missing = []
    for playbook in ("deploy.yml", "bench.yml", "io-trace.yml"):
        for play in load(playbook):
            if "hosts" not in play or play["hosts"] == "localhost":
                continue
            roles = {(r["role"] if isinstance(r, dict) else r, None) for r in play.get("roles", [])} | roles_named(play)
            if not any(role_uses_apt(role, tasks_from) for role, tasks_from in roles):
                continue
            timeout = ((play.get("module_defaults") or {}).get("ansible.builtin.apt") or {}).get("lock_timeout")
            if timeout != "{{ geoshard_apt_lock_timeout_s }}":
                missing.append("%s: %s" % (playbook, play["name"]))
    ec2 = load("group_vars/geoshard_ec2.yml")
    check("every play that reaches an apt task waits for the dpkg lock for geoshard_apt_lock_timeout_s "
          "(%s s on EC2)" % ec2.get("geoshard_apt_lock_timeout_s"),
          not missing and int(ec2.get("geoshard_apt_lock_timeout_s", 0)) > 60, missing)


def dpkg_lock():
    """dpkg_selections has no lock_timeout: each such task retries for as long as the apt tasks wait."""
    wired = load("group_vars/all.yml")
    problems, found = [], 0
    for path in glob.glob("roles/*/tasks/*.yml"):
        for task in walk(load(path) or []):
            if "ansible.builtin.dpkg_selections" not in task and "dpkg_selections" not in task:
                continue
            found += 1
            retries = str(task.get("retries", ""))
            variables = [v for v in wired if v.endswith("_lock_timeout_s") and v in retries]
            if not (task.get("until") and task.get("delay") and variables
                    and all(wired[v] == "{{ geoshard_apt_lock_timeout_s }}" for v in variables)):
                problems.append("%s: %s (until %r, retries %r, delay %r)" % (path, task.get("name"), task.get("until"),
                                                                          task.get("retries"), task.get("delay")))
    check("every dpkg_selections task waits for the dpkg lock as long as apt does (retries over geoshard_apt_lock_timeout_s)",
          found > 0 and not problems, problems or "no dpkg_selections task found")


if __name__ == "__main__":
    nofail()
    cloud_init()
    apt_lock()
    dpkg_lock()
    sys.exit(0 if all(results) else 1)
