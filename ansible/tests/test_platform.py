#!/usr/bin/env python3
"""Unit tests of the platform check (library/geoshard_platform.py) on the role's own data
(roles/mongodb_install/vars/main.yml) and copies of /proc/cpuinfo (tests/cpuinfo/): the pilot's
Dell R510 (Xeon E5620, no AVX), an AWS Graviton2 (ARMv8.2-A) and a Raspberry Pi 4 (Cortex-A72,
ARMv8.0). Also that deploy.yml checks every MongoDB host before any play installs anything.
./check runs them; the playbook run of the role's task file is in ./check itself.
"""
import os
import sys
import unittest

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
ANSIBLE = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ANSIBLE, "library"))
import geoshard_platform as module  # noqa: E402



def read(path):
    with open(path, encoding="utf-8", errors="replace") as file:
        return file.read()


DATA = yaml.safe_load(read(os.path.join(ANSIBLE, "roles/mongodb_install/vars/main.yml")))
PLATFORMS = DATA["__mongodb_install_platforms"]
RULES = DATA["__mongodb_install_cpu_rules"]


def cpu(name):
    return read(os.path.join(HERE, "cpuinfo", name + ".txt"))


AVX_CPU = "model name\t: AMD EPYC 7R13 Processor\nflags\t\t: fpu sse sse2 avx avx2 aes\n"


def verdict(series, distribution, release, architecture, cpuinfo):
    return module.verdict(series, PLATFORMS, RULES, distribution, release, architecture, cpuinfo, "lab-shard01")


class PlatformTest(unittest.TestCase):
    def test_the_r510_on_ubuntu_20_04_runs_4_4_and_is_refused_8_0_in_one_sentence(self):
        sentence, model, runs_here = verdict("4.4", "Ubuntu", "20.04", "x86_64", cpu("xeon-e5620"))
        self.assertIsNone(sentence)
        self.assertIn("E5620", model)
        self.assertEqual(runs_here, ["4.4"])
        sentence, _, _ = verdict("8.0", "Ubuntu", "20.04", "x86_64", cpu("xeon-e5620"))
        self.assertEqual(
            sentence,
            "lab-shard01 cannot run MongoDB 8.0: its CPU (Intel(R) Xeon(R) CPU           E5620  @ 2.40GHz) lacks AVX "
            "(flags avx), which MongoDB 5.0 and later need on x86_64; MongoDB 4.4 would run here.")

    def test_the_r510_on_a_newer_release_runs_nothing_the_roles_install(self):
        sentence, _, runs_here = verdict("7.0", "Ubuntu", "22.04", "x86_64", cpu("xeon-e5620"))
        self.assertEqual(runs_here, [])
        self.assertTrue(sentence.endswith("none of the series these roles install (4.4, 5.0, 6.0, 7.0, 8.0) would run here."),
                        sentence)

    def test_7_0_has_no_packages_for_ubuntu_24_04(self):
        sentence, _, runs_here = verdict("7.0", "Ubuntu", "24.04", "x86_64", AVX_CPU)
        self.assertEqual(sentence, "lab-shard01 cannot run MongoDB 7.0: MongoDB publishes no 7.0 packages for "
                                   "Ubuntu 24.04 (x86_64); MongoDB 8.0 would run here.")
        self.assertEqual(runs_here, ["8.0"])
        self.assertIsNone(verdict("8.0", "Ubuntu", "24.04", "x86_64", AVX_CPU)[0])

    def test_4_4_has_no_packages_for_debian_12(self):
        sentence, _, _ = verdict("4.4", "Debian", "12", "x86_64", AVX_CPU)
        self.assertEqual(sentence, "lab-shard01 cannot run MongoDB 4.4: MongoDB publishes no 4.4 packages for "
                                   "Debian 12 (x86_64); MongoDB 7.0 or 8.0 would run here.")

    def test_arm64_needs_armv8_2_a_from_4_4_19(self):
        self.assertIsNone(verdict("8.0", "Ubuntu", "22.04", "aarch64", cpu("graviton2"))[0])
        self.assertIsNone(verdict("4.4", "Ubuntu", "20.04", "aarch64", cpu("graviton2"))[0])
        sentence, model, runs_here = verdict("8.0", "Ubuntu", "20.04", "aarch64", cpu("cortex-a72"))
        self.assertEqual(model, "ARM part 0xd08")
        self.assertEqual(sentence, "lab-shard01 cannot run MongoDB 8.0: its CPU (ARM part 0xd08) lacks ARMv8.2-A "
                                   "(flags asimdrdm, atomics, dcpop), which MongoDB 4.4.19 and later need on aarch64; "
                                   "none of the series these roles install (4.4, 5.0, 6.0, 7.0, 8.0) would run here "
                                   "(but MongoDB 4.4.18 would, given as mongodb_install_package_version).")
        self.assertEqual(runs_here, [])
        # The series 4.4 installs its newest release (4.4.29), which a Cortex-A72 cannot run.
        sentence, _, _ = verdict("4.4", "Ubuntu", "20.04", "aarch64", cpu("cortex-a72"))
        self.assertTrue(sentence.startswith("lab-shard01 cannot run MongoDB 4.4: its CPU (ARM part 0xd08) lacks "
                                            "ARMv8.2-A"), sentence)
        for version, refused in (("4.4.18", False), ("4.4.19", True), ("4.4.29", True)):
            sentence, _, _ = module.verdict("4.4", PLATFORMS, RULES, "Ubuntu", "20.04", "aarch64", cpu("cortex-a72"),
                                            "lab-shard01", version)
            self.assertEqual(sentence is not None, refused, (version, sentence))
        self.assertTrue(sentence.startswith("lab-shard01 cannot run MongoDB 4.4.29: "), sentence)
        # x86_64 without AVX still runs every 4.4 release.
        self.assertIsNone(verdict("4.4", "Ubuntu", "20.04", "x86_64", cpu("xeon-e5620"))[0])

    def test_debian_has_no_arm64_packages(self):
        sentence, _, runs_here = verdict("8.0", "Debian", "12", "aarch64", cpu("graviton2"))
        self.assertIn("no 8.0 packages for Debian 12 (aarch64)", sentence)
        self.assertEqual(runs_here, [])

    def test_an_unknown_series_is_named_with_the_known_ones(self):
        sentence, _, _ = verdict("3.6", "Ubuntu", "20.04", "x86_64", AVX_CPU)
        self.assertIn("these roles know no MongoDB 3.6 (they know 4.4, 5.0, 6.0, 7.0, 8.0)", sentence)

    def test_this_machine_reads_as_a_cpu_with_flags(self):
        model, flags = module.read_cpu(read("/proc/cpuinfo"))
        self.assertTrue(flags, "no flags or Features line in /proc/cpuinfo")
        self.assertNotEqual(model, "")


class DeployOrderTest(unittest.TestCase):
    def test_every_mongodb_host_is_checked_before_any_play_installs_anything(self):
        plays = yaml.safe_load(read(os.path.join(ANSIBLE, "deploy.yml")))
        names = [play.get("name", "") for play in plays]
        check = next(i for i, play in enumerate(plays)
                     if any(task.get("ansible.builtin.include_role", {}).get("tasks_from") == "platform.yml"
                            for task in play.get("tasks", [])))
        self.assertTrue(plays[check].get("any_errors_fatal"), "one refused host must stop every host")
        for group in ("geoshard_standalone", "geoshard_configsvr", "geoshard_shardsvr", "geoshard_mongos"):
            self.assertIn(group, plays[check]["hosts"].split(":"))
        installing = [i for i, play in enumerate(plays) if play.get("roles") or play.get("tasks")]
        self.assertEqual(installing[0], check, "the first play that does anything on hosts is %r" % names[installing[0]])


if __name__ == "__main__":
    unittest.main()
