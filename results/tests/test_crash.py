"""What a crash leaves (kill -9): run.json says running, no summary.json, the last line of a .hlog and
of timeseries.csv cut in the middle. The report reads it, marks the run as crashed and rebuilds the
summary from the time series and the histograms."""

import json
import logging

import pytest

from geoshard_results.cli import main
from geoshard_results.errors import RunFolderError
from geoshard_results.report import REPORT_FILE
from geoshard_results.rundir import load_run
from tests.conftest import make_run


def crash(folder, cut_hlog="READ"):
    """Turns a finished run folder into what a killed harness leaves behind."""
    (folder / "summary.json").unlink()
    meta = json.loads((folder / "run.json").read_text())
    meta["status"] = "running"
    del meta["endTime"]
    (folder / "run.json").write_text(json.dumps(meta))
    hlog = folder / f"{cut_hlog}.hlog"
    text = hlog.read_text()
    hlog.write_text(text[: len(text) - 20])  # in the middle of the last interval's histogram
    series = folder / "timeseries.csv"
    text = series.read_text()
    series.write_text(text[: len(text) - 7])  # in the middle of the last row
    return folder


def test_a_crashed_run_is_read_marked_and_summarised(tmp_path, caplog):
    # Seconds: READ 150 (1 UPDATE error), 300, 120, then a short one cut by the crash.
    folder = crash(make_run(tmp_path / "crashed"))
    with caplog.at_level(logging.WARNING):
        run = load_run(folder, "crashed")
    assert run.meta["status"] == "crashed"
    summary = run.summary
    assert summary["stopReason"] == "crashed"
    # The last row of timeseries.csv (CLEANUP of the short second) is cut; READ of that second remains.
    assert summary["operations"] == 150 + 300 + 120 + 20
    assert summary["errors"] == 1
    assert summary["succeeded"] == 589
    assert summary["runtimeMs"] == 3250
    assert summary["throughput"] == pytest.approx(589 * 1000 / 3250)
    # READ's last interval was cut from its log: the histogram holds the three intervals before it.
    assert summary["perOperation"]["READ"]["count"] == 100 + 200 + 120 + 20
    assert summary["perOperation"]["READ"]["p99Us"] == 1000
    assert summary["perOperation"]["UPDATE"] == {**summary["perOperation"]["UPDATE"], "count": 150, "errors": 1,
                                                 "maxUs": 2000}
    assert "CLEANUP" not in summary["perOperation"]
    messages = " ".join(record.getMessage() for record in caplog.records)
    assert "READ.hlog:" in messages and "cut off" in messages
    assert "the run crashed" in messages


def test_the_report_of_a_crashed_run_says_so(tmp_path):
    folder = crash(make_run(tmp_path / "crashed"))
    out = tmp_path / "out"
    assert main([str(folder), "-o", str(out), "-q"]) == 0
    text = (out / REPORT_FILE).read_text()
    assert "crashed" in text


def test_a_cut_line_in_a_finished_log_is_left_out_too(tmp_path):
    folder = make_run(tmp_path / "run")
    hlog = folder / "READ.hlog"
    text = hlog.read_text()
    hlog.write_text(text[:-15])
    run = load_run(folder, "run")
    assert len(run.hlogs["READ"].intervals) == 3


def test_a_damaged_line_that_ends_properly_is_still_an_error(tmp_path):
    folder = make_run(tmp_path / "run")
    hlog = folder / "READ.hlog"
    lines = hlog.read_text().splitlines()
    lines[-2] = lines[-2][:-10]  # cut in the middle, but followed by more lines: damage, not a crash
    hlog.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out"
    assert main([str(folder), "-o", str(out), "-q"]) == 1


def test_a_run_that_failed_to_start_says_why(tmp_path):
    folder = make_run(tmp_path / "failed")
    (folder / "summary.json").unlink()
    meta = json.loads((folder / "run.json").read_text())
    meta.update(status="failed to start", failure="The run could not start: no server reachable at db1:5432")
    (folder / "run.json").write_text(json.dumps(meta))
    with pytest.raises(RunFolderError, match="run.json says the run failed to start: The run could not start: "
                                             "no server reachable at db1:5432"):
        load_run(folder, "failed")
