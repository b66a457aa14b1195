"""queryTargeting of run.json in the report."""
from pathlib import Path

import pandas as pd

from geoshard_results import report, targeting
from geoshard_results.rundir import Run


def _run(name: str, operations: dict) -> Run:
    return Run(path=Path(name), run_id=name, scenario=name, meta={"queryTargeting": {"operations": operations}},
               summary={}, timeseries=pd.DataFrame())


HASHED = {"GEO_NEAR": {"samples": 12, "targetsPerQuery": 3.0, "targetsMin": 3, "targetsMax": 3,
                       "examinedPerReturned": 9.6, "targetCounts": {"rs0": 12, "rs1": 12, "rs2": 12}}}
CELLS = {"GEO_NEAR": {"samples": 12, "targetsPerQuery": 1.25, "targetsMin": 1, "targetsMax": 2,
                      "examinedPerReturned": 3.2, "targetCounts": {"rs0": 9, "rs2": 6}},
         "READ": {"samples": 3, "targetsPerQuery": 1.0, "targetsMin": 1, "targetsMax": 1,
                  "examinedPerReturned": None, "targetCounts": {"rs1": 3}}}


def test_one_row_per_run_and_operation():
    frame = targeting.targeting_frame([_run("geo3s", HASHED), _run("geo3s-cells", CELLS), _run("none", {})])
    assert list(frame["operation"]) == ["GEO_NEAR", "GEO_NEAR", "READ"]
    assert list(frame["targetsPerQuery"]) == [3.0, 1.25, 1.0]
    assert frame.iloc[0]["targets"] == "rs0 (12), rs1 (12), rs2 (12)"


def test_the_table_shows_mean_and_range_and_says_na_for_nothing_returned():
    frame = targeting.targeting_frame([_run("geo3s", HASHED), _run("geo3s-cells", CELLS)])
    text = "\n".join(targeting.report_parts(frame, report._table))
    assert "| geo3s | GEO_NEAR | 12 | 3.00 (3–3) | 9.6 |" in text
    assert "| geo3s-cells | READ | 3 | 1.00 (1–1) | n/a |" in text
