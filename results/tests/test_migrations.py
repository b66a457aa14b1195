"""migrations of run.json (chunk migrations per stage) in the report."""
from pathlib import Path

import pandas as pd

from geoshard_results import migrations, report
from geoshard_results.rundir import Run


def _run(name: str, stages: dict | None) -> Run:
    meta = {} if stages is None else {"migrations": stages}
    return Run(path=Path(name), run_id=name, scenario=name, meta=meta, summary={}, timeseries=pd.DataFrame())


QUIET = {"load": {"balancer": "paused (was full)", "committed": 0, "perNamespace": {}},
         "after-load": {"balancer": "paused (was full)", "committed": 0, "perNamespace": {}}}
MOVING = {"run": {"balancer": "left as it was (mode full)", "committed": 3,
                  "perNamespace": {"ycsb.restaurants": 2, "ycsb.usertable": 1}}}
SETTLING = {"after-load": {"balancer": "left as it was (mode full)", "committed": 5, "perNamespace": {"ycsb.r": 5}}}
CUT = {"run": {"notRead": "the phase was cut off"}}


def test_one_row_per_run_and_stage_and_only_measured_stages_with_migrations_are_flagged():
    frame = migrations.migrations_frame([_run("paused", QUIET), _run("moving", MOVING), _run("settling", SETTLING),
                                         _run("postgis", None), _run("cut", CUT)])
    assert list(frame["stage"]) == ["load", "after-load", "run", "after-load", "run"]
    assert list(frame["flagged"]) == [False, False, True, False, False]
    assert frame.iloc[2]["perNamespace"] == "ycsb.restaurants (2), ycsb.usertable (1)"


def test_the_section_names_the_flagged_runs_and_marks_their_rows():
    frame = migrations.migrations_frame([_run("paused", QUIET), _run("moving", MOVING)])
    text = "\n".join(migrations.report_parts(frame, report._table))
    assert "**1 measured stage(s) had chunk migrations:** `moving` (run)." in text
    assert "| moving | moving | run | left as it was (mode full) | **3** ⚠ |" in text
    assert "| paused | paused | load | paused (was full) | 0 |" in text


def test_without_migrations_the_section_says_so_and_a_cut_off_stage_is_not_read():
    frame = migrations.migrations_frame([_run("paused", QUIET), _run("cut", CUT)])
    text = "\n".join(migrations.report_parts(frame, report._table))
    assert "No measured stage (load or run) had a chunk migration." in text
    assert "| cut | cut | run | the phase was cut off | not read |" in text
