"""Which PostgreSQL major bin/postgis runs (bin/postgis choose-version), on canned package lists: bin/test
docs runs these with the other tools' tests. tools/testdata/apt-cache-search/*.txt hold what
`apt-cache search --names-only '^postgresql-[0-9]+(-postgis-3)?$'` prints on each distribution
(debian-12.txt is this machine's; debian-12-pgdg.txt the same with PostgreSQL's own repository added)."""
import os
import pathlib
import subprocess
import tempfile
import unittest

HOME = pathlib.Path(__file__).resolve().parent.parent
LISTS = HOME / "tools" / "testdata" / "apt-cache-search"


def choose(listing, installed="", data_major=None):
    """Runs choose-version with the package list on standard input, the majors said to be installed with
    PostGIS, and, when data_major is given, a data directory that PostgreSQL of that major created."""
    with tempfile.TemporaryDirectory() as tmp:
        data = pathlib.Path(tmp) / "data"
        if data_major is not None:
            data.mkdir()
            (data / "PG_VERSION").write_text(f"{data_major}\n")
        env = {**os.environ, "GEOSHARD_PG_DIR": str(data)}
        return subprocess.run(["bash", str(HOME / "bin" / "postgis"), "choose-version", "--installed", installed],
                              input=listing, capture_output=True, text=True, env=env, timeout=30)


def listing(name):
    return (LISTS / name).read_text()


class ChooseVersionTest(unittest.TestCase):
    def assertChooses(self, result, major):
        self.assertEqual((result.returncode, result.stdout), (0, f"{major}\n"), result.stderr)

    def assertRefusedInOneLine(self, result, *named):
        self.assertEqual((result.returncode, result.stdout), (1, ""))
        self.assertEqual(len(result.stderr.splitlines()), 1, result.stderr)
        for word in named:
            self.assertIn(word, result.stderr)

    def test_each_distribution_gets_the_postgresql_its_archive_carries(self):
        for name, major in [("debian-12.txt", 15), ("debian-13.txt", 17), ("ubuntu-22.04.txt", 14),
                            ("ubuntu-24.04.txt", 16)]:
            with self.subTest(name):
                self.assertChooses(choose(listing(name)), major)

    def test_the_newest_major_from_13_to_17_of_an_archive_that_offers_more(self):
        self.assertChooses(choose(listing("debian-12-pgdg.txt")), 17)

    def test_a_server_whose_postgis_3_package_is_not_offered_is_not_chosen(self):
        self.assertChooses(choose("postgresql-17 - server\npostgresql-16 - server\n"
                                  "postgresql-16-postgis-3 - PostGIS\npostgresql-17-postgis-2 - PostGIS\n"), 16)

    def test_an_installed_server_beats_the_archive(self):
        result = choose(listing("ubuntu-24.04.txt"), installed="15")
        self.assertChooses(result, 15)
        self.assertEqual(result.stderr, "")

    def test_installed_majors_outside_13_to_17_are_not_used(self):
        self.assertChooses(choose(listing("debian-12.txt"), installed="12 18"), 15)

    def test_an_existing_data_directory_keeps_its_own_major_and_says_so(self):
        result = choose(listing("debian-13.txt"), installed="14 16", data_major=14)
        self.assertChooses(result, 14)
        self.assertIn("created by PostgreSQL 14: running it with PostgreSQL 14 (a new cluster would get"
                      " PostgreSQL 16)", result.stderr)

    def test_a_data_directory_whose_major_is_not_installed_is_refused_naming_both(self):
        result = choose(listing("debian-13.txt"), installed="16", data_major=14)
        self.assertRefusedInOneLine(result, "/data was created by PostgreSQL 14", "installed: 16",
                                    "install postgresql-14 and postgresql-14-postgis-3")

    def test_nothing_from_13_to_17_is_refused_naming_what_was_found(self):
        result = choose("postgresql-11 - server\npostgresql-11-postgis-3 - PostGIS\npostgresql-18 - server\n",
                        installed="12")
        self.assertRefusedInOneLine(result, "no PostgreSQL from 13 to 17", "installed with PostGIS: 12",
                                    "offered with postgresql-N-postgis-3: 11)")

    def test_an_empty_package_list_is_refused(self):
        self.assertRefusedInOneLine(choose(""), "installed with PostGIS: none",
                                    "offered with postgresql-N-postgis-3: none)")


if __name__ == "__main__":
    unittest.main()
