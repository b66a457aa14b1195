"""The block-I/O traces: reading, the sequential rule (as the harness's), the summary and the figures."""
from pathlib import Path

import pandas as pd
import pytest

from geoshard_results import blockio, report
from geoshard_results.rundir import Run

HEADER = ",".join(blockio.IO_COLUMNS)


def _run(tmp_path: Path, rows: list[str], start="2026-11-23T16:00:00Z", name="r1") -> Run:
    folder = tmp_path / name
    (folder / "io").mkdir(parents=True)
    (folder / "io" / "postgresql-5432.csv").write_text("\n".join([HEADER, *rows]) + "\n")
    return Run(path=folder, run_id=name, scenario="geo0s", meta={"startTime": start}, summary={},
               timeseries=pd.DataFrame())


START_MS = 1795449600000  # 2026-11-23T16:00:00Z

ROWS = [
    f"{START_MS + 1000},after-load,254:0,0,4096,R,R,postgres,10,100.0",     # first read: not judged
    f"{START_MS + 1001},after-load,254:0,8,4096,R,RA,postgres,10,200.0",    # follows 0..8: sequential
    f"{START_MS + 1003},after-load,254:0,64,8192,R,R,postgres,11,300.0",    # jumps: random
    f"{START_MS + 1002},after-load,254:0,16,4096,R,R,postgres,10,400.0",    # starts 16 = end of 8..16: sequential
    f"{START_MS + 1004},after-load,254:0,1000,8192,W,WS,postgres,12,500.0",  # first write
    f"{START_MS + 1005},after-load,254:0,0,0,other,FWS,postgres,12,600.0",  # flush: a request, no data
]


def test_requests_are_placed_on_the_runs_time_base(tmp_path):
    frame = blockio.io_frame([_run(tmp_path, ROWS)])
    assert list(frame["node"].unique()) == ["postgresql-5432"]
    assert frame["time_s"].min() == pytest.approx(1.0)
    assert frame["time_s"].max() == pytest.approx(1.005)


def test_the_summary_counts_directions_apart_and_judges_sequence_in_start_order(tmp_path):
    frame = blockio.io_frame([_run(tmp_path, ROWS)])
    summary = blockio.io_summary(frame)
    assert len(summary) == 1
    row = summary.iloc[0]
    assert row["requests"] == 6
    assert row["readMiB"] == pytest.approx((3 * 4096 + 8192) / 2**20)
    assert row["writeMiB"] == pytest.approx(8192 / 2**20)
    assert row["sequentialShare"] == pytest.approx(2 / 3)  # 8 and 16 follow on, 64 does not
    assert row["maxMs"] == pytest.approx(0.6)


def test_a_run_without_traces_has_no_io_rows(tmp_path):
    folder = tmp_path / "plain"
    folder.mkdir()
    run = Run(path=folder, run_id="plain", scenario="s", meta={}, summary={}, timeseries=pd.DataFrame())
    assert len(blockio.io_frame([run])) == 0
    assert len(blockio.io_summary(blockio.io_frame([run]))) == 0


def test_a_trace_without_its_columns_is_named(tmp_path):
    run = _run(tmp_path, [])
    (run.path / "io" / "postgresql-5432.csv").write_text("epoch_ms,device\n1,254:0\n")
    with pytest.raises(ValueError, match="postgresql-5432.csv.*sector"):
        blockio.io_frame([run])


def test_the_figures_have_one_panel_per_device_and_both_directions(tmp_path):
    rows = ROWS + [f"{START_MS + 2000},after-load,8:16,24,4096,R,R,postgres,10,50.0"]
    frame = blockio.io_frame([_run(tmp_path, rows)])
    pattern = blockio.pattern_figure(frame)
    titles = [ax.get_title() for ax in pattern.axes]
    assert titles == ["geo0s · postgresql-5432 · device 254:0", "geo0s · postgresql-5432 · device 8:16"]
    labels = [t.get_text() for t in pattern.axes[0].get_legend().get_texts()]
    assert labels == ["reads (4)", "writes (1)"]
    distribution = blockio.distribution_figure(frame)
    assert [ax.get_title() for ax in distribution.axes] == ["I/O size", "I/O latency"]


def test_the_report_section_names_the_traced_stage_and_the_figures(tmp_path):
    frame = blockio.io_frame([_run(tmp_path, ROWS)])
    figures = []
    parts = blockio.report_parts(blockio.io_summary(frame), lambda name, caption: figures.append(name) or name,
                                 report._table)
    text = "\n".join(parts)
    assert "| geo0s | postgresql-5432 | after-load | 6 |" in text
    assert "67%" in text
    assert figures == ["io_pattern", "io_distribution"]
    assert report.figure_file("io_pattern") == "io-pattern.png"
