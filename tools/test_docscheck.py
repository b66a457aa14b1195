"""Tests of docscheck's parsing: python3 -m unittest discover -s tools (bin/test docs runs them first)."""
import contextlib
import io
import unittest

import docscheck as d

README = """# Title
Run `bin/ycsb geo-cells --stats -p geo.cells.shards=3` or see `workloads/geo0s` and `no/such/file`.
`summary.json` records the rule (`ramp.sla.rule`); `ramp.mode=rate` is a property.

```bash
bin/postgis start; eval "$(bin/postgis env)"
common="-P workloads/geo0s -p geo.scale=0.1"
bin/ycsb run postgis-geo $common -p ramp.interval=10 \\
  -p ramp.maxthreads=40          # A
# a comment alone
bin/ycsb load mongodb-geo -p mongodb.url=mongodb://<mongos>:27017/ycsb
```

<!-- docs-check: bin/ycsb shard-hash 42 -->
```
-944302157085130861
```
"""


class ParseTest(unittest.TestCase):
    def setUp(self):
        self.blocks, self.prose = d.parse("README.md", README)

    def test_blocks_keep_their_readme_lines_and_markers(self):
        self.assertEqual([b.lang for b in self.blocks], ["bash", ""])
        self.assertEqual(self.blocks[0].lines[0], (6, 'bin/postgis start; eval "$(bin/postgis env)"'))
        self.assertIsNone(self.blocks[0].marker)
        self.assertEqual(self.blocks[1].marker, ("check", "bin/ycsb shard-hash 42", 14))
        self.assertEqual(self.blocks[1].lines, [(16, "-944302157085130861")])

    def test_a_marker_not_followed_by_a_block_is_an_error_naming_its_line(self):
        with self.assertRaisesRegex(ValueError, r"README.md:2: a docs-check marker must be followed"):
            d.parse("README.md", "x\n<!-- docs-check: true -->\ntext\n```\n```\n")

    def test_a_marked_table_is_a_block_up_to_its_last_row(self):
        blocks, prose = d.parse("R", "x\n<!-- docs-check: tools/t -->\n| a |\n| b |\nafter\n")
        self.assertEqual((blocks[0].lang, blocks[0].fence_line, blocks[0].lines), ("table", 2, [(3, "| a |"), (4, "| b |")]))
        self.assertEqual(prose, [(1, "x"), (5, "after")])

    def test_regenerating_replaces_only_the_blocks_contents(self):
        text = "a\n<!-- docs-check: x -->\n| 1 |\nb\n<!-- docs-perf: y -->\n```\nold\nold\n```\nc\n"
        blocks, _ = d.parse("R", text)
        self.assertEqual(d.rewritten(text, [(blocks[0], ["| 2 |", "| 3 |"]), (blocks[1], ["# measured", "new"])]),
                         "a\n<!-- docs-check: x -->\n| 2 |\n| 3 |\nb\n<!-- docs-perf: y -->\n```\n# measured\nnew\n```\nc\n")

    def test_suites_are_the_case_labels_of_bin_test(self):
        text = 'case "$what" in\n  java) run_java ;;\n  docs) shift; run_docs ;;\n  a|b) x ;;\n  *) echo no ;;\nesac\n'
        self.assertEqual(d.suites(text), {"java", "docs", "a", "b"})

    def test_an_unclosed_block_is_an_error_naming_its_line(self):
        with self.assertRaisesRegex(ValueError, r"README.md:2: a fenced block that never closes"):
            d.parse("README.md", "x\n```bash\nbin/ycsb --version\n")

    def test_commands_join_continuations_and_drop_comment_lines(self):
        found = d.commands(self.blocks[0])
        self.assertEqual([(c.first, c.last) for c in found], [(6, 6), (7, 7), (8, 9), (11, 11)])
        self.assertEqual(found[2].text, "bin/ycsb run postgis-geo $common -p ramp.interval=10 "
                                        "-p ramp.maxthreads=40          # A")

    def test_a_here_document_is_one_command(self):
        block = d.parse("R", "```bash\ncat > f <<'EOF'\na: 1\nEOF\nls\n```\n")[0][0]
        self.assertEqual([c.text for c in d.commands(block)], ["cat > f <<'EOF'\na: 1\nEOF", "ls"])

    def test_skips_name_their_reason_and_runnable_commands_are_shrunk(self):
        found = d.commands(self.blocks[0])
        self.assertIsNone(d.skip_reason(found[2].text))
        self.assertEqual(d.skip_reason(found[3].text), "needs a MongoDB cluster")
        self.assertEqual(d.skip_reason("bin/test"), "the whole test suite (bin/test docs is part of it)")
        self.assertIsNone(d.skip_reason("bin/test docs"))
        self.assertEqual(d.shrink(found[1].text), 'common="-P workloads/geo0s -p geo.scale=0.001"')
        self.assertEqual(d.shrink(found[2].text),
                         "bin/ycsb run postgis-geo $common -p ramp.interval=2 -p ramp.maxthreads=6")

    def test_a_command_that_reaches_past_this_machine_never_runs(self):
        # ansible/README's EC2 quick start asks a public service for the controller's address.
        ec2 = ("printf 'ec2_cluster_key_name: geoshard\\n' \"$(curl -s https://checkip.amazonaws.com)\""
               " >~/.geoshard/ec2.yml")
        self.assertEqual(d.skip_reason(ec2), "reaches the internet")
        self.assertEqual(d.skip_reason("wget -q https://example.org/x.tgz"), "reaches the internet")
        self.assertEqual(d.skip_reason("printf 'x: 1\\n' >~/.geoshard/ec2.yml"), "writes your EC2 settings")
        self.assertIsNone(d.skip_reason("bin/ycsb preflight postgis-geo -p postgis.url=jdbc:postgresql://127.0.0.1:54329/geoshard"))

    def test_a_hash_inside_quotes_is_no_comment(self):
        self.assertEqual(d.strip_comment("echo '# x' \"a#b\"  # c"), "echo '# x' \"a#b\"")

    def test_property_names_under_owned_prefixes_but_not_json_fields_or_files(self):
        texts = list(d.code_texts(self.blocks, self.prose)) + [(30, "`stats.py` and geo.router.<shard>")]
        names = sorted({n for _, n in d.mentioned_properties(texts, ("geo.", "ramp.", "stats."))})
        self.assertEqual(names, ["geo.cells.shards", "geo.router.<shard>", "geo.scale", "ramp.interval",
                                 "ramp.maxthreads", "ramp.mode"])

    def test_known_names_include_patterns_and_families(self):
        known = {"geo.scale", "geo.cells.level", "mongodb.targeted.mongos.*"}
        self.assertTrue(d.property_known("geo.scale", known))
        self.assertTrue(d.property_known("mongodb.targeted.mongos.shard01", known))
        self.assertTrue(d.property_known("mongodb.targeted.mongos.<shardId>", known))
        self.assertTrue(d.property_known("geo.cells.*", known))
        self.assertFalse(d.property_known("geo.scael", known))
        self.assertFalse(d.property_known("ll.*", known))

    def test_ycsbs_own_names_are_checked_where_a_readme_gives_or_names_one(self):
        # YCSB 0.17.0's CoreWorkload and Client names have no prefix; KnownPropertyNames lists them.
        known = {"threadcount", "recordcount", "operationcount", "readproportion", "target", "table", "workload",
                 "db", "geo.scale", "mongodb.targeted.mongos.*"}
        text = ("| `threadcont` | 1 | threads |\n"
                "Set `recordcount=1000`, `targeted`, `tables`, `workloada`, `dd` and `directConnection=false`.\n"
                "```bash\nbin/ycsb run basic -p threadcont=4 -p recordcount=10 -p key=value -p geo.scale=1\n```\n"
                "```\nreadproportoin=1\noperationcount=5\n```\n")
        report = d.Report()
        with contextlib.redirect_stderr(io.StringIO()):
            d.check_names({"R.md": d.parse("R.md", text)}, report, known, ("geo.", "mongodb."))
        self.assertEqual(report.failures, [
            "R.md:4: property 'threadcont' (given with -p) is read by no module and is not one of YCSB's; 'threadcount'?",
            "R.md:1: 'threadcont' is no property; YCSB's or geoshard's 'threadcount'?",
            "R.md:7: 'readproportoin' is no property; YCSB's or geoshard's 'readproportion'?",
        ])

    def test_paths_are_found_and_checked_against_the_repository(self):
        paths = [p for _, p in d.mentioned_paths(d.code_texts(self.blocks, self.prose))]
        self.assertIn("workloads/geo0s", paths)
        self.assertIn("no/such/file", paths)
        self.assertTrue(d.path_exists("README.md", "workloads/geo0s", ()))
        self.assertFalse(d.path_exists("README.md", "workloads/geo9s", ()))
        self.assertTrue(d.path_exists("README.md", "results/runs/2026-demo", ()))  # made by a run
        self.assertTrue(d.path_exists("README.md", "ops/s", ()))  # no folder of the repository: not a path

    def test_a_difference_names_the_readme_line(self):
        block = self.blocks[1]
        self.assertIn("line 16: documented '-944302157085130861'", d.diff(["-944302157085130861"], ["1"], block))


if __name__ == "__main__":
    unittest.main()
