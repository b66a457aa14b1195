"""A run's identity: repetitions are runs with one label and one identity; anything else is shown apart."""

from __future__ import annotations

import json
import logging

import pytest

from geoshard_results.cli import main
from geoshard_results.errors import RunFolderError
from geoshard_results.report import REPORT_FILE, compute_frames, render_markdown
from geoshard_results.rundir import load_run, read_inputs
from tests.conftest import make_run
from tests.synthetic import identity

GEO = {"geo.scale": "0.1", "workload": "org.geoshard.geo.GeoWorkload"}

# (what differs, options of the first run, options of the second, the names they are shown under, the
# difference the warning names)
DIFFERING = [
    ("command", {"command": "load"}, {"command": "run"}, ["geo0s [load]", "geo0s [run]"], "command: load, run"),
    ("binding", {"binding": "postgis-geo"}, {"binding": "noop"}, ["geo0s [postgis-geo]", "geo0s [noop]"],
     "binding: postgis-geo, noop"),
    ("workload", {"workload": "org.geoshard.geo.GeoWorkload"}, {"workload": "site.ycsb.workloads.CoreWorkload"},
     ["geo0s [GeoWorkload]", "geo0s [CoreWorkload]"],
     "workload: org.geoshard.geo.GeoWorkload, site.ycsb.workloads.CoreWorkload"),
    ("scenario property", {"properties": {"geo.scale": "0.1"}}, {"properties": {"geo.scale": "1"}},
     ["geo0s [geo.scale=0.1]", "geo0s [geo.scale=1]"], "geo.scale: 0.1, 1"),
    ("property set in one only", {"properties": {}}, {"properties": {"mongodb.shardkey": "cell"}},
     ["geo0s [mongodb.shardkey=unset]", "geo0s [mongodb.shardkey=cell]"], "mongodb.shardkey: unset, cell"),
    ("older folders, command", {"command": "load", "with_identity": False},
     {"command": "run", "with_identity": False}, ["geo0s [load]", "geo0s [run]"], "command: load, run"),
    ("one older folder, binding", {"binding": "postgis-geo"}, {"binding": "noop", "with_identity": False},
     ["geo0s [postgis-geo]", "geo0s [noop]"], "binding: postgis-geo, noop"),
]


@pytest.mark.parametrize("what, first, second, names, difference", DIFFERING, ids=[case[0] for case in DIFFERING])
def test_runs_of_different_identity_under_one_label_are_shown_apart(tmp_path, caplog, what, first, second, names,
                                                                    difference):
    a = make_run(tmp_path / "a", "geo0s", **first)
    b = make_run(tmp_path / "b", "geo0s", **second)
    with caplog.at_level(logging.WARNING, logger="geoshard_results"):
        inputs = read_inputs([a, b])
    assert [run.scenario for run in inputs.runs] == names
    assert [split.label for split in inputs.splits] == ["geo0s"]
    warning = [r.getMessage() for r in caplog.records if "not repetitions" in r.getMessage()]
    assert len(warning) == 1 and difference in warning[0] and all(f"'{name}'" in warning[0] for name in names)
    frames = compute_frames(inputs.runs)
    assert list(frames.scenarios["scenario"]) == names and list(frames.scenarios["runs"]) == [1, 1]
    text = render_markdown(frames, splits=inputs.splits)
    assert f"**Shown apart:** the runs labelled 'geo0s' are not repetitions of one scenario (they differ in " \
           f"{difference})" in text


@pytest.mark.parametrize("with_identity", [True, False], ids=["identity", "older folders"])
def test_runs_of_one_identity_under_one_label_are_repetitions(tmp_path, caplog, with_identity):
    options = {"binding": "postgis-geo", "properties": GEO, "with_identity": with_identity}
    runs = [make_run(tmp_path / name, "geo0s", **options) for name in ("a", "b", "c")]
    with caplog.at_level(logging.WARNING, logger="geoshard_results"):
        inputs = read_inputs(runs)
    assert {run.scenario for run in inputs.runs} == {"geo0s"} and inputs.splits == []
    assert list(compute_frames(inputs.runs).scenarios["runs"]) == [3]
    older = [r for r in caplog.records if "no identity in run.json" in r.getMessage()]
    assert len(older) == (0 if with_identity else 1)  # said once, not once per run
    if older:
        assert older[0].getMessage().startswith("3 run folder(s) have no identity")


def test_the_identity_key_decides_when_both_runs_have_one(tmp_path):
    a = make_run(tmp_path / "a", "geo0s")
    b = make_run(tmp_path / "b", "geo0s")
    meta = json.loads((b / "run.json").read_text())
    meta["identity"]["key"] = "0" * 64  # same fields, another key: a scenario property this reader does not know
    (b / "run.json").write_text(json.dumps(meta))
    inputs = read_inputs([a, b])
    assert [run.scenario for run in inputs.runs] == ["geo0s [#1]", "geo0s [#2]"]
    assert inputs.splits[0].differences == ["their identity keys only"]


def test_different_labels_stay_as_they_are(tmp_path):
    inputs = read_inputs([make_run(tmp_path / "a", "A", command="load"), make_run(tmp_path / "b", "B")])
    assert [run.scenario for run in inputs.runs] == ["A", "B"] and inputs.splits == []


def test_a_label_given_on_the_command_line_does_not_pool_a_load_with_a_run(tmp_path):
    load = make_run(tmp_path / "load", "x", command="load")
    run = make_run(tmp_path / "run", "y")
    out = tmp_path / "out"
    assert main(["--label", f"S={load}", "--label", f"S={run}", "-o", str(out), "-q"]) == 0
    text = (out / REPORT_FILE).read_text()
    assert "| S [load] |" in text and "| S [run] |" in text


@pytest.mark.parametrize("identity, message", [
    ("run", "identity is not an object: 'run'"),
    ({"command": "merge", "binding": "noop", "workload": "W", "scenario": {}}, "identity.command is not one of load, run"),
    ({"command": "run", "workload": "W"}, "identity.binding is missing or not a name: None"),
    ({"command": "run", "binding": "noop", "workload": "W", "scenario": []}, "identity.scenario is not an object"),
    ({"command": "run", "binding": "noop", "workload": "W", "scenario": {"geo.scale": 0.1}},
     "identity.scenario.geo.scale is not a string: 0.1"),
    ({"command": "run", "binding": "noop", "workload": "W", "scenario": {}, "key": "abc"},
     "identity.key is not a hex SHA-256: 'abc'"),
])
def test_a_malformed_identity_is_refused_naming_the_field(tmp_path, identity, message):
    folder = make_run(tmp_path / "run")
    meta = json.loads((folder / "run.json").read_text())
    meta["identity"] = identity
    (folder / "run.json").write_text(json.dumps(meta))
    with pytest.raises(RunFolderError, match=f"run.json: {message}".replace("[", r"\[").replace("(", r"\(")):
        load_run(folder, "run")


def _fail_start(folder, failure="The run could not start: no server reachable at db1:5432"):
    (folder / "summary.json").unlink()
    meta = json.loads((folder / "run.json").read_text())
    meta.update(status="failed to start", stopReason="failed", failure=failure)
    (folder / "run.json").write_text(json.dumps(meta))
    return folder


def test_a_failed_start_in_a_folder_of_runs_is_listed_and_the_rest_reported(tmp_path, capsys):
    make_run(tmp_path / "runs" / "a", "geo0s")
    _fail_start(make_run(tmp_path / "runs" / "b", "geo0s"))
    make_run(tmp_path / "runs" / "c", "geo0s")
    out = tmp_path / "out"
    assert main([str(tmp_path / "runs"), "-o", str(out), "-q"]) == 0
    assert (f"report: warning: {tmp_path / 'runs' / 'b'}: the run failed to start (The run could not start: no "
            "server reachable at db1:5432); listed as failed, not analysed") in capsys.readouterr().err
    text = (out / REPORT_FILE).read_text()
    assert "from 2 run folder(s) in 1 scenario(s): **geo0s**. 1 more run folder(s) failed to start" in text
    assert "| b | geo0s | failed to start | The run could not start: no server reachable at db1:5432 |" in text
    assert "| geo0s | 2 |" in text  # the two that ran are repetitions


def test_only_failed_starts_are_an_error_naming_the_reason(tmp_path, capsys):
    _fail_start(make_run(tmp_path / "runs" / "a"), failure="no server")
    _fail_start(make_run(tmp_path / "runs" / "b"))
    assert main([str(tmp_path / "runs"), "-o", str(tmp_path / "out"), "-q"]) == 1
    errors = [line for line in capsys.readouterr().err.splitlines() if line.startswith("report: error: ")]
    assert errors == [f"report: error: {tmp_path / 'runs' / 'a' / 'summary.json'}: missing: run.json says the run "
                      "failed to start: no server"]
    assert not (tmp_path / "out").exists()


def test_the_fixtures_write_the_key_as_the_harness_does():
    # The same identity and key as the Java harness's RunIdentityTest (canonical JSON: keys sorted, no
    # whitespace, UTF-8); properties that may differ between repetitions are left out of the scenario.
    written = identity("run", "noop", "site.ycsb.workloads.CoreWorkload",
                       {"readproportion": "1", "geo.scale": "0.1", "dotransactions": "true", "geo.dataset": "Zürich",
                        "seed": "7", "results.dir": "/tmp/x", "postgis.url": "jdbc:postgresql://h/db",
                        "mongodb.password": "****", "clientthreads": "8"})
    assert list(written["scenario"]) == ["dotransactions", "geo.dataset", "geo.scale", "readproportion"]
    assert written["key"] == "c1584d3d10577e9b9cd5732db85979abccf88b3e35ce5b80efafd1ea6fd1aec8"
