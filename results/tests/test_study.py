"""The section "As the study reports it" reproduces the study's arithmetic on time series whose
answer is worked out by hand: counts per second, a 50 s rolling mean, the trims, the per-second mean
of three runs, then mean, min, max and a t interval over the seconds."""

import json
import math
from pathlib import Path

import numpy as np
import pytest

from geoshard_results import data, study
from geoshard_results.cli import main
from geoshard_results.rundir import load_runs
from tests.synthetic import RunSpec, Sample, Second, write_run


def linear_run(folder: Path, label: str, offset: int, seconds: int = 300, shards: int | None = None) -> Path:
    """Second t (1..seconds) has t + offset successful GEO_NEAR operations, and one failed one."""
    write_run(folder, RunSpec(seconds=[Second({"GEO_NEAR": Sample([1000], [t + offset + 1], errors=1)})
                                       for t in range(1, seconds + 1)], label=label))
    if shards is not None:
        meta = json.loads((folder / "run.json").read_text())
        meta["topology"] = {"deployment": "sharded", "shards": [{"id": f"shard{i}"} for i in range(shards)]}
        (folder / "run.json").write_text(json.dumps(meta))
    return folder


def expected(values: np.ndarray):
    """mean, min, max and the 95% t interval as scipy's st.t.interval(0.95, n-1, loc=mean, scale=sem)."""
    n = values.size
    half = 1.9720 * values.std(ddof=1) / math.sqrt(n)  # t(0.975, 199) = 1.97196
    return values.mean(), values.min(), values.max(), values.mean() - half, values.mean() + half


def study_rows(tmp_path, runs_spec, options=None):
    folders = [linear_run(tmp_path / name, label, offset, shards=shards) for name, label, offset, shards in runs_spec]
    runs = load_runs(folders)
    per_second = data.throughput_per_second(data.timeseries_frame(runs))
    return study.study_frame(runs, per_second, options)


def test_three_unsharded_runs_by_hand(tmp_path):
    # Runs of t, t + 10 and t + 20 ops per second; the rolling mean of t over 50 s at second t is t - 24.5.
    # Unsharded: the first 200 and the last 20 seconds go, leaving seconds 201..280; their mean over the runs
    # is (t - 24.5) + 10 = t - 14.5, i.e. 186.5 .. 265.5.
    frame = study_rows(tmp_path, [("a", "0S", 0, None), ("b", "0S", 10, None), ("c", "0S", 20, None)])
    row = frame.iloc[0]
    values = np.arange(201, 281) - 14.5
    mean, low_value, high_value, ci_low, ci_high = expected(values)
    assert (row["runs"], row["window"], row["trim"], row["seconds"]) == (3, 50, "200 s / 20 s", 80)
    assert row["mean"] == pytest.approx(226.0) == pytest.approx(mean)
    assert (row["min"], row["max"]) == (pytest.approx(low_value), pytest.approx(high_value))
    # n = 80 here: t(0.975, 79) = 1.99045
    half = 1.99045 * values.std(ddof=1) / math.sqrt(values.size)
    assert row["ci95Low"] == pytest.approx(mean - half, rel=1e-4)
    assert row["ci95High"] == pytest.approx(mean + half, rel=1e-4)


def test_sharded_runs_are_cut_80_seconds_at_the_start_only(tmp_path):
    # 2 shards: seconds 81..300 stay; t - 24.5 + 5 (offsets 0 and 10) = t - 19.5, i.e. 61.5 .. 280.5.
    frame = study_rows(tmp_path, [("a", "2S", 0, 2), ("b", "2S", 10, 2)])
    row = frame.iloc[0]
    assert (row["trim"], row["seconds"]) == ("80 s / 0 s", 220)
    assert (row["mean"], row["min"], row["max"]) == (pytest.approx(171.0), pytest.approx(61.5), pytest.approx(280.5))


def test_window_and_trim_are_options(tmp_path):
    # A 10 s window: t - 4.5 from second 10; trimmed 100:50 leaves seconds 101..250 of one run: 96.5 .. 245.5.
    frame = study_rows(tmp_path, [("a", "3S", 0, 3)], study.StudyOptions(window=10, trim=(100, 50)))
    row = frame.iloc[0]
    values = np.arange(101, 251) - 4.5
    mean, low_value, high_value, ci_low, ci_high = expected(values)
    assert (row["window"], row["trim"], row["seconds"]) == (10, "100 s / 50 s", 150)
    assert (row["mean"], row["min"], row["max"]) == (pytest.approx(mean), pytest.approx(low_value),
                                                     pytest.approx(high_value))
    assert row["ci95Low"] < mean < row["ci95High"]


def test_runs_of_different_lengths_pool_over_the_seconds_they_share(tmp_path):
    short = linear_run(tmp_path / "short", "0S", 0, seconds=260)
    long = linear_run(tmp_path / "long", "0S", 0, seconds=300)
    runs = load_runs([short, long])
    per_second = data.throughput_per_second(data.timeseries_frame(runs))
    row = study.study_frame(runs, per_second).iloc[0]
    # short keeps 201..240, long 201..280: the pool is 201..240, both at t - 24.5.
    assert row["seconds"] == 40
    assert row["mean"] == pytest.approx(np.mean(np.arange(201, 241) - 24.5))


def test_a_run_shorter_than_window_and_trim_has_no_figures(tmp_path):
    frame = study_rows(tmp_path, [("a", "0S", 0, None)], study.StudyOptions(trim=(290, 20)))
    assert frame.iloc[0]["seconds"] == 0 and math.isnan(frame.iloc[0]["mean"])


def test_parse_trim_and_bad_options():
    assert study.parse_trim("200:20") == (200, 20)
    assert study.parse_trim("80") == (80, 0)
    with pytest.raises(ValueError, match="START:END"):
        study.parse_trim("two hundred")
    with pytest.raises(ValueError):
        study.StudyOptions(window=0)


def test_the_report_has_the_section_and_the_options_reach_it(tmp_path):
    for name, offset in (("a", 0), ("b", 10), ("c", 20)):
        linear_run(tmp_path / "runs" / name, "0S", offset)
    out = tmp_path / "report"
    assert main([str(tmp_path / "runs"), "-o", str(out), "-q"]) == 0
    text = (out / "report.md").read_text()
    assert "## As the study reports it" in text
    assert "| 0S | 3 | 50 | 200 s / 20 s | 80 | 226.0 | 186.5 | 265.5 |" in text
    out2 = tmp_path / "report2"
    assert main([str(tmp_path / "runs"), "-o", str(out2), "-q", "--study-window", "10", "--study-trim", "100:50"]) == 0
    assert "| 0S | 3 | 10 | 100 s / 50 s | 150 |" in (out2 / "report.md").read_text()
    with pytest.raises(SystemExit) as exit_info:
        main([str(tmp_path / "runs"), "-o", str(out2), "--study-trim", "x"])
    assert exit_info.value.code == 2
