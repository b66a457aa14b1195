#!/usr/bin/env python3
"""Static rules of ansible/ that linters do not know (run from ansible/):
  - every role default is prefixed with the role name and commented (its paragraph has a
    comment before it); OS-specific values in vars/ are prefixed __<role>_;
  - no secret has a value in any file: password/secret/token keys are empty or templated, no
    key material, and the secret-bearing paths are gitignored;
  - every collection named by an FQCN (modules, module_defaults groups, lookups, filters,
    inventory plugins) in the playbooks, roles, library and inventories is in requirements.yml;
  - node_exporter's arguments file is written before its package is installed (Debian starts
    the service at install: without the file it would listen on every interface);
  - mongodb_install checks the repository's signing key (tasks/apt-key.yml, whose refusal ./check
    runs on its own) before the repository is added and its packages installed;
  - README.md's quick start: at most five commands per block, each playbook it names exists, and on
    the lab (sudo with a password) every ansible-playbook asks for it with -K.
Prints one PASS/FAIL line per rule.
"""
import glob
import json
import os
import re
import subprocess
import sys

import yaml

# What ansible-lint leaves out (tools, scratch, the guest's files, fetched results) is left out here too.
SKIP = tuple(p.strip("/") for p in yaml.safe_load(open(".ansible-lint", encoding="utf-8"))["exclude_paths"])
failures = []


def report(label, problems):
    failures.extend(problems)
    print(("FAIL " if problems else "PASS ") + label + "".join("\n    " + p for p in problems[:20]))


def role_defaults():
    problems = []
    for path in sorted(glob.glob("roles/*/defaults/main.yml")):
        role = path.split("/")[1]
        lines = open(path, encoding="utf-8").read().splitlines()
        commented = False
        for line in lines:
            if not line.strip():
                commented = False
            elif line.startswith("#"):
                commented = True
            match = re.match(r"^([A-Za-z_][A-Za-z0-9_]*):", line)
            if match:
                name = match.group(1)
                if not name.startswith(role + "_"):
                    problems.append("%s: %s is not prefixed %s_" % (path, name, role))
                if not commented:
                    problems.append("%s: %s has no comment" % (path, name))
        data = yaml.safe_load(open(path, encoding="utf-8")) or {}
        if not data:
            problems.append("%s is empty" % path)
    for path in sorted(glob.glob("roles/*/vars/*.yml")):
        role = path.split("/")[1]
        for name in (yaml.safe_load(open(path, encoding="utf-8")) or {}):
            if not name.startswith("__%s_" % role):
                problems.append("%s: %s is not prefixed __%s_" % (path, name, role))
    report("role variables are prefixed with their role and commented (%d roles)"
           % len(glob.glob("roles/*/defaults/main.yml")), problems)


def no_secret_values():
    problems = []
    secret_key = re.compile(r"^\s*-?\s*([\w.-]*(password|passwd|secret|token|private_key)[\w.-]*)\s*:\s*(.*)$", re.I)
    blob = re.compile(r"[A-Za-z0-9+/=]{64,}")
    for base, dirs, files in os.walk("."):
        dirs[:] = [d for d in dirs if d not in SKIP and not d.startswith(".git")]
        for name in files:
            if not name.endswith((".yml", ".yaml", ".j2", ".cfg", ".md", ".txt", ".py")):
                continue
            path = os.path.join(base, name)
            for number, line in enumerate(open(path, encoding="utf-8"), 1):
                match = secret_key.match(line)
                if match and name.endswith((".yml", ".yaml")):
                    value = match.group(3).strip()
                    # Settings named like secrets: update_password modes, IMDS token policy.
                    if value and value not in ('""', "''", ">-", "|", "true", "false", "on_create", "always", "required") \
                            and not value.startswith(('"{{', "'{{", "{{")) and not value.startswith("#"):
                        problems.append("%s:%d: %s has a value" % (path, number, match.group(1)))
                if blob.search(line) and "sha256:" not in line:
                    problems.append("%s:%d: looks like key material" % (path, number))
    report("no password, secret or key material has a value in any file", problems)


def gitignored():
    patterns = open(".gitignore", encoding="utf-8").read().split()
    missing = [p for p in ("/.venv/", "/.secrets/", "/results/", "*.vault.yml", "vault.yml") if p not in patterns]
    report(".gitignore keeps the venv, secrets, vault files and results out of git", missing)


def collections_required():
    # Candidates <ns>.<coll>.<name> are kept only when <ns>.<coll> is a collection ansible knows
    # (installed with the pinned ansible package): property names and host names are not.
    listing = json.loads(subprocess.run(["ansible-galaxy", "collection", "list", "--format", "json"],
                                        check=True, capture_output=True, text=True).stdout)
    known = {name for collections in listing.values() for name in collections} - {"ansible.builtin"}
    required = {c["name"] for c in yaml.safe_load(open("requirements.yml", encoding="utf-8"))["collections"]}
    fqcn = re.compile(r"\b([a-z][a-z0-9_]*\.[a-z][a-z0-9_]*)\.[a-z_][a-z0-9_]*")
    used = {}
    paths = glob.glob("*.yml") + glob.glob("playbooks/**/*.yml", recursive=True) \
        + glob.glob("roles/**/*.yml", recursive=True) + glob.glob("roles/**/*.j2", recursive=True) \
        + glob.glob("library/*.py") + glob.glob("inventories/**/*.yml", recursive=True)
    for path in sorted(paths):
        for name in fqcn.findall(open(path, encoding="utf-8").read()):
            if name in known:
                used.setdefault(name, path)
    problems = ["%s (used in %s) is not in requirements.yml" % (name, path)
                for name, path in sorted(used.items()) if name not in required]
    report("requirements.yml lists every collection the playbooks, roles, library and inventories use (%s)"
           % ", ".join(sorted(used)), problems)


def node_exporter_args_before_install():
    tasks = yaml.safe_load(open("roles/node_exporter/tasks/main.yml", encoding="utf-8"))
    writes = [i for i, t in enumerate(tasks)
              if "node_exporter_defaults_file" in str(t.get("ansible.builtin.template", {}).get("dest", ""))]
    installs = [i for i, t in enumerate(tasks) if "ansible.builtin.apt" in t]
    problems = [] if writes and installs and max(writes) < min(installs) else [
        "roles/node_exporter/tasks/main.yml: the template to node_exporter_defaults_file (tasks %s) is not before "
        "the apt install (tasks %s)" % (writes, installs)]
    report("node_exporter's arguments file is written before its package is installed", problems)


def signing_key_before_apt():
    """./check runs apt-key.yml on its own against served keys; this is the order it has in a deploy."""
    path = "roles/mongodb_install/tasks/packages-Debian.yml"
    tasks = yaml.safe_load(open(path, encoding="utf-8"))
    checks = [i for i, t in enumerate(tasks) if t.get("ansible.builtin.include_tasks") == "apt-key.yml"]
    uses = [i for i, t in enumerate(tasks) if "ansible.builtin.deb822_repository" in t
            or "mongodb_install_packages" in str(t.get("ansible.builtin.apt", {}).get("name", ""))]
    problems = [] if checks and uses and min(checks) < min(uses) else [
        "%s: the include of apt-key.yml (tasks %s) is not before the repository and the MongoDB packages (tasks %s)"
        % (path, checks, uses)]
    report("mongodb_install checks the repository's signing key before apt adds the repository", problems)


def pin_ceilings():
    """A pin that must not be raised for the oldest hosts says so on the lines just above it."""
    problems = []
    for path, pin, why in (("requirements.txt", "ansible-core==", "Python 3.8"),
                           ("roles/mongodb_install/defaults/main.yml", "mongodb_install_pymongo_version:", "Python 3.8")):
        lines = open(path, encoding="utf-8").read().splitlines()
        at = [i for i, line in enumerate(lines) if line.startswith(pin)]
        above = []
        for line in reversed(lines[:at[0]] if at else []):
            if not line.startswith("#"):
                break
            above.append(line)
        text = " ".join(above)
        if not at or "Ceiling" not in text or why not in text:
            problems.append("%s: %s has no comment above it giving its ceiling (%s)" % (path, pin.rstrip("=:"), why))
    report("the pins' ceilings are written beside them (ansible-core 2.19, pymongo 4.10.1: the last for Python 3.8 hosts)",
           problems)


def quick_start():
    """The README's quick start as a newcomer types it: short, with playbooks that exist."""
    text = open("README.md", encoding="utf-8").read()
    section = text.split("\n## Quick start\n", 1)[-1].split("\n## ", 1)[0] if "\n## Quick start\n" in text else ""
    blocks = re.findall(r"```sh\n(.*?)```", section, re.S)
    problems = [] if len(blocks) >= 2 else ["README.md: no '## Quick start' with a lab and an EC2 block of commands"]
    for n, block in enumerate(blocks, 1):
        commands = [c for c in re.sub(r"\\\n", " ", block).splitlines() if c.strip() and not c.startswith("#")]
        if len(commands) > 5:
            problems.append("README.md quick start, block %d: %d commands, more than five" % (n, len(commands)))
        for command in commands:
            for playbook in re.findall(r"\bansible-playbook\b.*?(\S+\.yml)\b", command):
                if not os.path.isfile(playbook):
                    problems.append("README.md quick start, block %d: %s does not exist" % (n, playbook))
            if n == 1 and "ansible-playbook" in command and " -K " not in command:
                problems.append("README.md quick start, lab block: no -K (sudo's password) in: " + command)
    report("README.md's quick start: at most five commands a block, its playbooks exist, -K on the lab", problems)


if __name__ == "__main__":
    role_defaults()
    no_secret_values()
    gitignored()
    collections_required()
    node_exporter_args_before_install()
    signing_key_before_apt()
    pin_ceilings()
    quick_start()
    sys.exit(1 if failures else 0)
