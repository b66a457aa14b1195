#!/usr/bin/python
# -*- coding: utf-8 -*-
# Part of the geoshard project (ansible/library): used by the mongodb_install role.

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: geoshard_platform
short_description: Refuse a host that cannot run a MongoDB release series, before anything is installed
description:
  - Reads the host's CPU flags from C(cpuinfo) and compares them, and the host's distribution,
    release and architecture, with C(platforms) and C(cpu_rules) (the role's data).
  - A host that cannot run C(series) fails with one sentence that names why (the CPU feature
    it lacks, or the missing packages) and which of the series in C(platforms) would run there.
  - Changes nothing; supports check mode.
options:
  series:
    description: The MongoDB release series to install, for example C(8.0) or C(4.4).
    type: str
    required: true
  platforms:
    description:
      - "Packages per series: C({series: {distribution: {release: [architecture, ...]}}}), the
        distribution in lower case (C(ubuntu), C(debian)) and the release as the role compares it
        (C(20.04) for Ubuntu, the major version C(12) for Debian)."
    type: dict
    required: true
  cpu_rules:
    description:
      - "CPU features a series needs: a list of C({architecture, since, flags, name}); every
        flag must be among the host's flags for C(since) and later, a series (C(5.0)) or a release
        (C(4.4.19): 4.4.19 and the later 4.4 releases, so the newest 4.4 too)."
    type: list
    elements: dict
    required: true
  distribution:
    description: The host's distribution (C(ansible_facts.distribution)).
    type: str
    required: true
  release:
    description: The host's release, as in C(platforms).
    type: str
    required: true
  architecture:
    description: The host's architecture (C(ansible_facts.architecture)).
    type: str
    required: true
  cpuinfo:
    description: Where the CPU flags are read (a copy of a C(/proc/cpuinfo) in tests).
    type: path
    default: /proc/cpuinfo
  version:
    description:
      - The exact version to install (C(mongodb_install_package_version), for example C(4.4.18)).
        Empty, the newest release of C(series), which the repository installs.
    type: str
    default: ""
  host:
    description: The host's name in the refusal (C(inventory_hostname)).
    type: str
    default: This host
requirements: []
author:
  - geoshard
"""

EXAMPLES = r"""
- name: Check that this host can run MongoDB 4.4
  geoshard_platform:
    series: "4.4"
    platforms: "{{ __mongodb_install_platforms }}"
    cpu_rules: "{{ __mongodb_install_cpu_rules }}"
    distribution: "{{ ansible_facts.distribution }}"
    release: "{{ ansible_facts.distribution_version }}"
    architecture: "{{ ansible_facts.architecture }}"
"""

RETURN = r"""
cpu:
  description: The CPU's model as /proc/cpuinfo names it.
  returned: always
  type: str
runs_here:
  description: The series of C(platforms) that would run on this host, oldest first.
  returned: always
  type: list
  elements: str
"""

from ansible.module_utils.basic import AnsibleModule


def series_key(series):
    return tuple(int(part) for part in str(series).split("."))


def read_cpu(text):
    """(model, flags) of the first processor in a /proc/cpuinfo text: x86 'flags', arm 'Features'."""
    model, flags = "", None
    for line in text.splitlines():
        name, _, value = line.partition(":")
        name = name.strip().lower()
        if name == "model name" and not model:
            model = value.strip()
        elif name == "cpu part" and not model:
            model = "ARM part " + value.strip()
        elif name in ("flags", "features") and flags is None:
            flags = set(value.split())
    return model or "unknown model", flags or set()


def release_key(series, version=""):
    """The release that gets installed: the exact version when one is given, else the series' newest
    (what the repository installs), ordered after every release of that series."""
    if version:
        return series_key(version)
    return series_key(series) + (float("inf"),)


def lacking(series, architecture, flags, cpu_rules, version=""):
    """The first CPU rule that the host does not meet for the release installed, or None."""
    for rule in cpu_rules:
        if rule["architecture"] == architecture and release_key(series, version) >= series_key(rule["since"]):
            if not set(rule["flags"]) <= flags:
                return rule
    return None


def packaged(series, distribution, release, architecture, platforms):
    return architecture in platforms.get(str(series), {}).get(distribution.lower(), {}).get(str(release), [])


def verdict(series, platforms, cpu_rules, distribution, release, architecture, cpu_text, host="This host", version=""):
    """(sentence or None, cpu model, series that would run here, in their newest releases)."""
    model, flags = read_cpu(cpu_text)

    def runs(candidate, exact=""):
        return packaged(candidate, distribution, release, architecture, platforms) \
            and lacking(candidate, architecture, flags, cpu_rules, exact) is None

    runs_here = sorted((s for s in platforms if runs(s)), key=series_key)
    if runs(series, version):
        return None, model, runs_here
    label = version or series
    where = "%s %s (%s)" % (distribution, release, architecture)
    if str(series) not in platforms:
        why = "these roles know no MongoDB %s (they know %s)" % (
            series, ", ".join(sorted(platforms, key=series_key)))
    elif not packaged(series, distribution, release, architecture, platforms):
        why = "MongoDB publishes no %s packages for %s" % (series, where)
    else:
        rule = lacking(series, architecture, flags, cpu_rules, version)
        why = "its CPU (%s) lacks %s (flags %s), which MongoDB %s and later need on %s" % (
            model, rule["name"], ", ".join(sorted(set(rule["flags"]) - flags)), rule["since"], architecture)
    if runs_here:
        instead = "MongoDB %s would run here" % " or ".join(runs_here)
    else:
        instead = "none of the series these roles install (%s) would run here" % ", ".join(
            sorted(platforms, key=series_key))
    # A rule from a release within a series (4.4.19) leaves that series' earlier releases.
    earlier = []
    for rule in cpu_rules:
        since = series_key(rule["since"])
        if rule["architecture"] == architecture and len(since) > 2 and since[-1] > 0 \
                and ".".join(map(str, since[:2])) not in runs_here:
            before = ".".join(map(str, since[:-1] + (since[-1] - 1,)))
            if runs(".".join(map(str, since[:2])), before):
                earlier.append(before)
    if earlier:
        instead += " (but MongoDB %s would, given as mongodb_install_package_version)" % " or ".join(earlier)
    return "%s cannot run MongoDB %s: %s; %s." % (host, label, why, instead), model, runs_here


def main():
    module = AnsibleModule(
        argument_spec=dict(
            series=dict(type="str", required=True),
            platforms=dict(type="dict", required=True),
            cpu_rules=dict(type="list", elements="dict", required=True),
            distribution=dict(type="str", required=True),
            release=dict(type="str", required=True),
            architecture=dict(type="str", required=True),
            cpuinfo=dict(type="path", default="/proc/cpuinfo"),
            host=dict(type="str", default="This host"),
            version=dict(type="str", default=""),
        ),
        supports_check_mode=True,
    )
    params = module.params
    try:
        with open(params["cpuinfo"], encoding="utf-8", errors="replace") as cpuinfo:
            cpu_text = cpuinfo.read()
    except OSError as error:
        module.fail_json(msg="cannot read the CPU flags from %s: %s" % (params["cpuinfo"], error))
    sentence, model, runs_here = verdict(
        params["series"], params["platforms"], params["cpu_rules"], params["distribution"],
        params["release"], params["architecture"], cpu_text, params["host"], params["version"])
    if sentence:
        module.fail_json(msg=sentence, cpu=model, runs_here=runs_here)
    module.exit_json(changed=False, cpu=model, runs_here=runs_here)


if __name__ == "__main__":
    main()
