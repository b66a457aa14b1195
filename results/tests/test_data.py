"""The numbers: per-second throughput, latency over time, scenario and operation tables."""

import json
import math

import pandas as pd
import pytest

from geoshard_results import data, tables
from geoshard_results.report import compute_frames, render_markdown
from geoshard_results.rundir import load_run, load_runs
from tests.conftest import RAMP, make_run


def frames_of(*folders, labels=None):
    return compute_frames(load_runs(list(folders), labels))


def test_throughput_per_second_sums_successful_operations_but_cleanup(simple_run):
    frames = frames_of(simple_run)
    per_second = frames.per_second
    assert list(per_second["second"]) == [1, 2, 3]  # the 250 ms interval is left out
    # Second 1 ended 150 operations, one UPDATE failed: a failed operation is never throughput.
    assert list(per_second["opsPerSec"]) == [149.0, 300.0, 120.0]
    assert list(per_second["elapsedS"]) == [0.5, 1.5, 2.5]
    assert list(per_second["errors"]) == [1, 0, 0]


def test_short_intervals_are_kept_when_asked(simple_run):
    run = load_run(simple_run, "r")
    per_second = data.throughput_per_second(data.timeseries_frame([run]), min_interval_ms=0)
    assert list(per_second["opsPerSec"]) == [149.0, 300.0, 120.0, 80.0]


def test_a_second_without_any_operation_counts_as_zero():
    timeseries = pd.DataFrame({
        "runId": "r", "scenario": "s", "second": [1, 3], "startEpochMs": [0, 2000], "intervalMs": 1000,
        "operation": "READ", "ops": [10, 30], "errors": 0, "threads": 4})
    per_second = data.throughput_per_second(timeseries)
    assert list(per_second["opsPerSec"]) == [10.0, 0.0, 30.0]
    assert list(per_second["threads"]) == [4, 4, 4]


def test_latency_over_time_merges_operations_per_second(simple_run):
    latency = frames_of(simple_run).latency
    assert list(latency["second"]) == [1, 2, 3]
    assert list(latency["count"]) == [150, 300, 120]
    # Second 1: 100 x 1000 µs + 50 x 2000 µs; second 2: 200 x 1000 µs + 100 x 1500 µs.
    assert list(latency["p50Us"]) == [1000, 1000, 1000]
    assert list(latency["p95Us"]) == [2000, 1500, 1000]
    assert list(latency["p99Us"]) == [2000, 1500, 1000]
    assert list(latency["maxUs"]) == [2000, 1500, 1000]


def test_scenario_table_shows_the_harness_numbers(ramp_run):
    row = frames_of(ramp_run).scenarios.iloc[0]
    assert row["scenario"] == "0S"
    assert row["sustained"] == 225.0 and row["sustainedSource"] == "ramp"
    assert (row["plateauMean"], row["plateauMin"], row["plateauMax"]) == (190.0, 120.0, 300.0)
    assert (row["ci95Low"], row["ci95High"]) == (150.5, 229.5)
    assert row["ciMethod"] == "batch means (3 × 1 s)"
    assert row["stopReason"] == "sla"
    assert row["threadsAtPeak"] == "5"


def test_scenario_table_in_markdown(ramp_run):
    table, right = tables.scenario_summary(frames_of(ramp_run).scenarios)
    markdown = tables.markdown_table(table, right)
    assert "| 0S | 1 | 225 | 190 | 120 | 300 | 150 – 230 | batch means (3 × 1 s) | sla | 5 |" in markdown


def test_an_older_run_without_ramp_or_plateau_shows_na(simple_run):
    frames = frames_of(simple_run)
    row = frames.scenarios.iloc[0]
    # Throughput from summary.json: 592 operations (CLEANUP included, as the harness counts) in 3.25 s.
    assert row["sustained"] == 182.15 and row["sustainedSource"] == "overall"
    assert math.isnan(row["plateauMean"]) and math.isnan(row["ci95Low"])
    assert row["threadsAtPeak"] == "2"
    table, _ = tables.scenario_summary(frames.scenarios)
    assert list(table.iloc[0]) == ["simple", "1", "182*", "n/a", "n/a", "n/a", "n/a", "n/a", "time", "2"]


def test_repeated_runs_are_one_scenario_with_a_t_interval(tmp_path):
    first = dict(RAMP, maxSustainedThroughput=100.0, plateau=dict(RAMP["plateau"], meanOpsPerSec=100.0))
    second = dict(RAMP, maxSustainedThroughput=200.0, plateau=dict(RAMP["plateau"], meanOpsPerSec=200.0,
                                                                 minOpsPerSec=90.0, maxOpsPerSec=400.0))
    frames = frames_of(make_run(tmp_path / "a", "3S", first), make_run(tmp_path / "b", "3S", second))
    row = frames.scenarios.iloc[0]
    half = 12.706 * math.sqrt(5000) / math.sqrt(2)
    assert row["runs"] == 2
    assert row["sustained"] == 150.0 and row["plateauMean"] == 150.0
    assert (row["plateauMin"], row["plateauMax"]) == (90.0, 400.0)
    assert row["ci95Low"] == pytest.approx(150 - half) and row["ci95High"] == pytest.approx(150 + half)
    assert row["ciMethod"] == "t over 2 runs"
    assert row["stopReason"] == "sla ×2"
    bar = frames.bars.iloc[0]
    assert bar["value"] == 150.0 and bar["runValues"] == [100.0, 200.0]
    assert bar["errLow"] == pytest.approx(150 - half)
    assert math.isnan(bar["pointMean"])  # no plateau diamond for repeats


def test_operation_table_single_run_uses_summary(simple_run):
    operations = frames_of(simple_run).operations.set_index("operation")
    read, update = operations.loc["READ"], operations.loc["UPDATE"]
    assert (read["count"], read["errors"], read["p50Us"], read["p99Us"], read["maxUs"]) == (440, 0, 1000, 1000, 1000)
    assert (update["count"], update["errors"], update["p50Us"], update["p95Us"], update["maxUs"]) == \
        (150, 1, 1500, 2000, 2000)
    assert not operations["pooled"].any()
    table, _ = tables.operation_summary(frames_of(simple_run).operations)
    assert list(table.iloc[1]) == ["simple", "UPDATE", "150", "1", "1.50", "2.00", "2.00", "2.00", "summary.json"]


def test_operation_table_pools_histograms_of_repeats(tmp_path):
    frames = frames_of(make_run(tmp_path / "a", "S"), make_run(tmp_path / "b", "S"))
    update = frames.operations.set_index("operation").loc["UPDATE"]
    assert (update["runs"], update["count"], update["errors"], update["pooled"]) == (2, 300, 2, True)
    # Pooled: 100 x 2000 µs and 200 x 1500 µs.
    assert (update["p50Us"], update["p95Us"], update["p99Us"], update["maxUs"]) == (1500, 2000, 2000, 2000)


def test_steps_and_points_of_throughput_versus_threads(ramp_run, simple_run):
    frames = frames_of(ramp_run, simple_run)
    steps = frames.steps
    assert list(steps["threads"]) == [5, 10]
    assert list(steps["verdict"]) == ["pass", "sla"]
    assert list(steps["isPeak"]) == [True, False]
    points = frames.load_points
    plain = points[points["verdict"] == "run"].iloc[0]
    assert (plain["scenario"], plain["threads"], plain["throughput"]) == ("simple", 2, 182.15)
    boundaries = frames.boundaries
    assert list(boundaries["elapsedS"]) == [0, 2] and list(boundaries["threads"]) == [5, 10]


def test_plateau_crosscheck_recomputes_from_the_timeseries(ramp_run, tmp_path):
    check = frames_of(ramp_run).crosscheck.iloc[0]
    # (149 + 300 + 120) / 3 against the harness's 190: within the 0.5% tolerance.
    assert check["recomputedMean"] == pytest.approx(569 / 3) and check["agrees"]
    wrong = make_run(tmp_path / "wrong", "W", dict(RAMP, plateau=dict(RAMP["plateau"], meanOpsPerSec=250.0)))
    frames = frames_of(wrong)
    assert not frames.crosscheck.iloc[0]["agrees"]
    assert "differ from `summary.json`" in render_markdown(frames)


def test_scenario_names_come_from_label_then_run_json_then_folder(tmp_path):
    labelled = make_run(tmp_path / "x", "from-run-json")
    unlabelled = make_run(tmp_path / "folder-name", None)
    overridden = make_run(tmp_path / "y", "ignored")
    runs = load_runs([labelled, unlabelled, overridden], {overridden.resolve(): "from-option"})
    assert [run.scenario for run in runs] == ["from-run-json", "folder-name", "from-option"]


def test_runs_with_the_same_folder_name_get_distinct_ids(tmp_path):
    runs = load_runs([make_run(tmp_path / "a" / "run"), make_run(tmp_path / "b" / "run")])
    assert [run.run_id for run in runs] == ["run", "run#2"]


def test_formatting():
    assert tables.fmt_rate(1234567.8) == "1,234,568"
    assert tables.fmt_rate(12.34) == "12.3"
    assert tables.fmt_rate(float("nan")) == "n/a"
    assert tables.fmt_ms(1500) == "1.50"
    assert tables.fmt_interval(1, float("nan")) == "n/a"
    table = pd.DataFrame({"a": ["x|y"], "b": ["1"]})
    assert tables.markdown_table(table, ["b"]) == "| a | b |\n|---|---:|\n| x\\|y | 1 |"


def test_long_runs_are_plotted_in_windows():
    assert data.window_seconds(600) == 1
    assert data.window_seconds(1200) == 1
    assert data.window_seconds(3600) == 10  # about 600 points per line
    assert data.window_seconds(6 * 3600) == 60


def test_windows_divide_ops_by_the_window_length(simple_run):
    per_second = frames_of(simple_run).per_second  # 149, 300, 120 successful ops/s
    windows = data.resample_throughput(per_second, 2)
    assert list(windows["opsPerSec"]) == [224.5, 120.0]
    assert list(windows["elapsedS"]) == [1.0, 2.5]
    assert data.resample_throughput(per_second, 1) is per_second


def test_latency_windows_merge_the_histograms_of_their_seconds(simple_run):
    intervals = data.intervals_frame(load_runs([simple_run]))
    latency = data.latency_over_time(intervals, window=2)
    # Seconds 1+2: 300 x 1000, 50 x 2000 and 100 x 1500 µs; second 3: 120 x 1000 µs.
    assert list(latency["count"]) == [450, 120]
    assert list(latency["p50Us"]) == [1000, 1000]
    assert list(latency["p95Us"]) == [2000, 1000]
    assert list(latency["p99Us"]) == [2000, 1000]
    assert list(latency["elapsedS"]) == [1.0, 2.5]


def test_the_runs_table_lists_each_runs_own_uuid(tmp_path):
    from tests.synthetic import RunSpec, Sample, Second, write_run
    folders = []
    for name, uuid in (("new", "8f0c7a52-3c43-4a43-9a5e-2b1c7e0f6a11"), ("old", None)):
        folder = write_run(tmp_path / name, RunSpec(seconds=[Second({"READ": Sample([1000], [10])})]))
        if uuid:
            meta = json.loads((folder / "run.json").read_text())
            meta["runUuid"] = uuid
            (folder / "run.json").write_text(json.dumps(meta))
        folders.append(folder)
    frame = data.runs_frame(load_runs(folders))
    assert frame["runUuid"].tolist() == ["8f0c7a52-3c43-4a43-9a5e-2b1c7e0f6a11", None]


def test_a_step_in_which_nothing_succeeded_is_a_breach():
    assert "nothing" in data.BREACH_VERDICTS
