"""The section "As the study reports it" computes what the study's notebook printed as the paper's
table (Corgam/mongo_benchmark, data_analysis/throughput_all_average.ipynb, cell 7): per run every
completed request per second (failed ones too, the partial last second a bin of its own), a rolling
mean, the run's own cuts, the cut runs concatenated, then n, mean, min, max and a 95% t interval.

The first tests use series whose answers are worked out by hand; the last ones run the notebook's own
pandas operations on request logs made from the same per-second counts and compare."""

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scipy.stats

from geoshard_results import study
from geoshard_results.cli import main
from geoshard_results.rundir import load_runs
from tests.synthetic import RunSpec, Sample, Second, write_run


def counted_run(folder: Path, label: str, completed: list, failed: list | None = None, last_interval_ms: int = 1000,
                shards: int | None = None) -> Path:
    """Second i (1-based) completes ``completed[i-1]`` GEO_NEAR requests, ``failed[i-1]`` of them failed
    (None: the second has no row at all). The last interval lasts ``last_interval_ms``; a CLEANUP row
    (3 operations, which are no requests) is in the last second."""
    failed = failed or [0] * len(completed)
    seconds = [Second({} if count is None else {"GEO_NEAR": Sample([1000], [count], errors=errors)})
               for count, errors in zip(completed, failed)]
    seconds[-1].interval_ms = last_interval_ms
    seconds[-1].samples["CLEANUP"] = Sample([90], [3])
    write_run(folder, RunSpec(seconds=seconds, label=label))
    if shards is not None:
        meta = json.loads((folder / "run.json").read_text())
        meta["topology"] = {"deployment": "sharded", "shards": [{"id": f"shard{i}"} for i in range(shards)]}
        (folder / "run.json").write_text(json.dumps(meta))
    return folder


def linear_run(folder: Path, label: str, offset: int, seconds: int = 300, shards: int | None = None) -> Path:
    """Second t (1..seconds) completes t + offset + 1 requests, one of them failed."""
    return counted_run(folder, label, [t + offset + 1 for t in range(1, seconds + 1)], [1] * seconds, shards=shards)


def rows(runs_or_folders, options=None) -> pd.DataFrame:
    return study.study_frame(load_runs(list(runs_or_folders)), options)


def t975(n: int) -> float:
    return scipy.stats.t.ppf(0.975, n - 1)


# Worked out by hand ----------------------------------------------------------------------------


def test_three_unsharded_runs_are_cut_one_by_one_and_concatenated(tmp_path):
    # Every completed request counts: t + offset + 1 at second t; its 50 s rolling mean is t + offset - 23.5.
    # Each run keeps seconds 201..280 (the first 200 and the last 20 cut): 3 x 80 = 240 values, from
    # 201 - 23.5 = 177.5 (offset 0) to 280 - 23.5 + 20 = 276.5 (offset 20), mean 240.5 - 23.5 + 10 = 227.0.
    frame = rows(linear_run(tmp_path / name, "0S", offset) for name, offset in (("a", 0), ("b", 10), ("c", 20)))
    row = frame.iloc[0]
    assert (row["runs"], row["window"], row["cuts"], row["n"]) == (3, 50, "200:20 (each)", 240)
    assert (row["mean"], row["min"], row["max"]) == (pytest.approx(227.0), pytest.approx(177.5), pytest.approx(276.5))
    values = np.concatenate([np.arange(201, 281) - 23.5 + offset for offset in (0, 10, 20)])
    half = t975(240) * values.std(ddof=1) / math.sqrt(240)
    assert (row["ci95Low"], row["ci95High"]) == (pytest.approx(227.0 - half), pytest.approx(227.0 + half))
    assert (round(row["ci95Low"], 2), round(row["ci95High"], 2)) == (223.88, 230.12)  # issue 30's figures
    # The same arithmetic over successful requests only: one fewer every second.
    assert row["successfulMean"] == pytest.approx(226.0)


def test_failed_requests_count_cleanup_does_not_and_a_second_without_rows_is_zero(tmp_path):
    # Completed 5, (no row), 7 of which 2 failed, 4 (+ 3 CLEANUP): counts 5, 0, 7, 4 with a 1 s window, no cut.
    folder = counted_run(tmp_path / "a", "0S", [5, None, 7, 4], [0, None, 2, 0])
    row = rows([folder], study.StudyOptions(window=1, trim=study.Trim(0, 0))).iloc[0]
    assert (row["n"], row["mean"], row["min"], row["max"]) == (4, 4.0, 0.0, 7.0)
    assert row["successfulMean"] == pytest.approx((5 + 0 + 5 + 4) / 4)


def test_the_last_partial_second_is_a_bin_of_its_own(tmp_path):
    # 10, 20, 30, 40 in full seconds, then 5 in a last interval of 300 ms. A 2 s rolling mean gives
    # NaN, 15, 25, 35, 22.5; cut 1:0 keeps 15, 25, 35, 22.5 and cut 1:1 removes the partial bin (22.5),
    # not the last full second.
    folder = counted_run(tmp_path / "a", "0S", [10, 20, 30, 40, 5], last_interval_ms=300)
    kept = rows([folder], study.StudyOptions(window=2, trim=study.Trim(1, 0))).iloc[0]
    values = np.array([15, 25, 35, 22.5])
    half = t975(4) * values.std(ddof=1) / 2
    assert (kept["n"], kept["mean"], kept["min"], kept["max"]) == (4, 24.375, 15.0, 35.0)
    assert (kept["ci95Low"], kept["ci95High"]) == (pytest.approx(24.375 - half), pytest.approx(24.375 + half))
    cut_end = rows([folder], study.StudyOptions(window=2, trim=study.Trim(1, 1))).iloc[0]
    assert (cut_end["n"], cut_end["mean"], cut_end["max"]) == (3, 25.0, 35.0)


def test_sharded_runs_take_80_s_at_the_start_and_each_run_its_own_end(tmp_path):
    # Three 2S runs of 300, 320 and 310 s, t + 1 requests at second t (one failed): the rolling mean is
    # t - 23.5. Without --study-trim-run only the first 80 s go: (300 - 80) + (320 - 80) + (310 - 80) = 690.
    folders = [linear_run(tmp_path / f"2S-{i}", "2S", 0, seconds=length, shards=2)
               for i, length in ((1, 300), (2, 320), (3, 310))]
    plain = rows(folders).iloc[0]
    assert (plain["cuts"], plain["n"]) == ("80:0 (each)", 690)
    # The study's hand-picked ends, 5, 160 and 0 s: seconds 81..295, 81..160 and 81..310 stay,
    # 215 + 80 + 230 = 525 values with means 164.5, 97 and 172, from 57.5 to 286.5.
    options = study.StudyOptions(run_trims=((str(folders[0]), study.Trim(80, 5)), ("2S-2", study.Trim(80, 160)),
                                            (str(folders[2]), study.Trim(80, 0))))
    row = rows(folders, options).iloc[0]
    assert (row["cuts"], row["n"]) == ("80:5, 80:160, 80:0", 525)
    assert row["mean"] == pytest.approx((215 * 164.5 + 80 * 97 + 230 * 172) / 525) == pytest.approx(157.5)
    assert (row["min"], row["max"]) == (57.5, 286.5)


def test_a_run_s_own_cut_wins_over_the_cut_for_all(tmp_path):
    folders = [linear_run(tmp_path / name, "0S", 0) for name in ("a", "b")]
    options = study.StudyOptions(window=10, trim=study.Trim(100, 50), run_trims=(("b", study.Trim(10, 0)),))
    row = rows(folders, options).iloc[0]
    # a keeps 150 values (seconds 101..250), b 290 (11..300); the 10 s rolling mean of t + 1 is t - 3.5.
    assert (row["cuts"], row["n"]) == ("100:50, 10:0", 440)
    assert (row["min"], row["max"]) == (11 - 3.5, 300 - 3.5)


def test_a_start_cut_shorter_than_the_window_keeps_nan_as_the_notebook_does(tmp_path):
    # Window 10, cut 5:0: seconds 6..9 have no rolling mean. The notebook's np.mean is then NaN, and so
    # its interval; pandas' max and min skip NaN (the first mean, at second 10, is that of 2..11: 6.5);
    # n counts every value.
    row = rows([linear_run(tmp_path / "a", "0S", 0)], study.StudyOptions(window=10, trim=study.Trim(5, 0))).iloc[0]
    assert row["n"] == 295
    assert math.isnan(row["mean"]) and math.isnan(row["ci95Low"]) and math.isnan(row["ci95High"])
    assert (row["min"], row["max"]) == (6.5, 296.5)


def test_a_run_shorter_than_its_cuts_has_no_figures(tmp_path):
    row = rows([linear_run(tmp_path / "a", "0S", 0)], study.StudyOptions(trim=study.Trim(290, 20))).iloc[0]
    assert row["n"] == 0 and math.isnan(row["mean"]) and math.isnan(row["min"])


def test_parse_trims_and_bad_options(tmp_path):
    assert study.parse_trim("200:20") == study.Trim(200, 20)
    assert study.parse_trim("80:0") == study.Trim(80, 0)
    for lone in ("5", "80", ":5", "5:", "5:0:1", ""):
        # Before: "5" was read as 5:0 without a word.
        with pytest.raises(ValueError, match="expected START:END"):
            study.parse_trim(lone)
    assert study.parse_run_trim("results/runs/a=b=80:5") == ("results/runs/a=b", study.Trim(80, 5))
    with pytest.raises(ValueError, match="START:END"):
        study.parse_trim("two hundred")
    with pytest.raises(ValueError, match="0 or more"):
        study.parse_trim("-1:5")
    with pytest.raises(ValueError, match="RUN_DIR=START:END"):
        study.parse_run_trim("80:5")
    with pytest.raises(ValueError, match="at least 1 second"):
        study.StudyOptions(window=0)
    with pytest.raises(ValueError, match="more than one cut"):
        study.StudyOptions(run_trims=(("a", study.Trim(1, 1)), ("a", study.Trim(2, 2))))
    runs = load_runs([linear_run(tmp_path / "a", "0S", 0)])
    with pytest.raises(ValueError, match="elsewhere is none of the report's run folders"):
        study.run_trims(runs, study.StudyOptions(run_trims=(("elsewhere", study.Trim(1, 1)),)))
    with pytest.raises(ValueError, match="both name the run"):
        study.run_trims(runs, study.StudyOptions(run_trims=(("a", study.Trim(1, 1)),
                                                            (str(tmp_path / "a"), study.Trim(2, 2)))))


def test_loads_are_left_out_of_the_study_table(tmp_path):
    runs = [linear_run(tmp_path / "a", "0S", 0)]
    load = tmp_path / "load"
    write_run(load, RunSpec(seconds=[Second({"INSERT": Sample([1000], [500])}) for _ in range(300)], label="0S",
                            command="load"))
    frame = rows([*runs, load])
    # Before: the load was a row of its own ("0S [load]"), its inserts counted as the study counted queries.
    assert list(frame["runs"]) == [1]
    assert list(frame["scenario"]) == ["0S [run]"]
    loads_only = load_runs([load])
    assert len(study.study_frame(loads_only)) == 0
    assert not study.AsTheStudyReportsIt().applies(type("Frames", (), {"inputs": loads_only})())


def test_a_lone_study_trim_is_refused_naming_the_option(tmp_path, capsys):
    linear_run(tmp_path / "runs" / "a", "0S", 0)
    with pytest.raises(SystemExit) as exit_info:
        main([str(tmp_path / "runs"), "-o", str(tmp_path / "report"), "--study-trim", "5"])
    assert exit_info.value.code == 2
    assert "--study-trim: expected START:END in whole seconds (e.g. 200:20, or 5:0 to cut the start only), not '5'" \
        in capsys.readouterr().err


def test_the_report_has_the_section_and_the_options_reach_it(tmp_path):
    for name, offset in (("a", 0), ("b", 10), ("c", 20)):
        linear_run(tmp_path / "runs" / name, "0S", offset)
    out = tmp_path / "report"
    assert main([str(tmp_path / "runs"), "-o", str(out), "-q"]) == 0
    text = (out / "report.md").read_text()
    assert "## As the study reports it" in text and "failed ones included" in text
    assert "| 0S | 3 | 50 | 200:20 (each) | 240 | 227.00 | 177.50 | 276.50 | 223.88 – 230.12 | 226.00 |" in text
    out2 = tmp_path / "report2"
    assert main([str(tmp_path / "runs"), "-o", str(out2), "-q", "--study-window", "10", "--study-trim", "100:50",
                 "--study-trim-run", f"{tmp_path / 'runs' / 'c'}=10:0"]) == 0
    assert "| 0S | 3 | 10 | 100:50, 100:50, 10:0 | 590 |" in (out2 / "report.md").read_text()
    for bad in (["--study-trim", "x"], ["--study-trim", "5"], ["--study-trim-run", "80:5"],
                ["--study-trim-run", f"{tmp_path / 'runs' / 'c'}=10"], ["--study-window", "0"]):
        with pytest.raises(SystemExit) as exit_info:
            main([str(tmp_path / "runs"), "-o", str(out2), *bad])
        assert exit_info.value.code == 2
    assert main([str(tmp_path / "runs"), "-o", str(out2), "-q", "--study-trim-run", "nowhere=80:5"]) == 2


# The notebook's own operations on the same counts ---------------------------------------------


def response_log(completed: list, last_interval_ms: int) -> pd.DataFrame:
    """What the study's client would have logged for these per-second counts: one ReceivedResponse
    line (time since the start, latency) per completed request, spread over its second; the first
    at time 0, so that the notebook's bins (which start at the first response) are geoshard's seconds."""
    times = []
    for second, count in enumerate(completed, start=1):
        length = last_interval_ms / 1000 if second == len(completed) else 1.0
        times += [second - 1 + length * k / count for k in range(count or 0)]
    return pd.DataFrame({"time": pd.to_timedelta(times, unit="s"), "latency": 1000})


def notebook_seconds(responses: pd.DataFrame, window: int) -> pd.Series:
    # Cell 2: ReceivedResponse lines counted per second (its printout: "Freq: S, Name: latency") and
    # smoothed with a trailing rolling mean. pandas 2 spells the one-second frequency "s".
    return responses.resample("s", on="time").count()["latency"].rolling(window).mean()


def mean_confidence_interval(data, confidence=0.95):
    # Cell 7's helper, as the study used it: numpy mean, scipy's standard error and t quantile.
    a = 1.0 * np.array(data)
    n = len(a)
    m, se = np.mean(a), scipy.stats.sem(a)
    h = se * scipy.stats.t.ppf((1 + confidence) / 2., n - 1)
    return m, m - h, m + h


def notebook_cut(seconds: pd.Series, start: int, end: int) -> pd.Series:
    # The notebook's cuts, e.g. seconds1_1.tail(-200).head(-20), seconds2_3.tail(-80) (no head when no end).
    cut = seconds.tail(-start) if start else seconds
    return cut.head(-end) if end else cut


def notebook_cell_7(runs: list, window: int, cuts: list) -> dict:
    # Cell 7: each run cut on its own, the cut runs appended (all1 = cut_1_1.append(cut_1_2).append(cut_1_3);
    # pandas 2: pd.concat), then max, min and mean_confidence_interval over all the values.
    parts = [notebook_cut(notebook_seconds(response_log(completed, last_ms), window), *cut)
             for (completed, last_ms), cut in zip(runs, cuts)]
    all1 = pd.concat(parts)
    mean, low, high = mean_confidence_interval(all1)
    return {"n": len(all1), "mean": mean, "min": all1.min(), "max": all1.max(),
            "ci95Low": low, "ci95High": high}


def ramp_counts(rng, seconds: int, capacity: float) -> tuple[list, list]:
    """A ramp's completed requests per second (rising to ``capacity``, noisy) and the failed ones among
    them (more near the top), both whole numbers."""
    level = np.minimum(capacity, 150 + np.arange(seconds) * capacity / (0.7 * seconds))
    completed = np.maximum(1, rng.normal(level, 0.04 * level)).astype(int)
    failed = rng.binomial(completed, np.where(level >= capacity, 0.05, 0.002))
    return completed.tolist(), failed.tolist()


CASES = {
    # name: (label, shards, [(seconds, capacity, last interval ms)], options, cuts the notebook applies)
    "0S, the study's cuts": ("0S", None, [(420, 720, 400), (380, 700, 650), (410, 730, 200)],
                             study.StudyOptions(), [(200, 20)] * 3),
    "2S, the study's hand-picked ends": ("2S", 2, [(330, 900, 500), (400, 950, 1000), (350, 880, 120)],
                                        "hand", [(80, 5), (80, 160), (80, 0)]),
    "3S, window 20 and one cut for all": ("3S", 3, [(300, 1000, 900), (260, 990, 300), (280, 1010, 700)],
                                          study.StudyOptions(window=20, trim=study.Trim(30, 10)), [(30, 10)] * 3),
    "a start cut under the window: NaN": ("0S", None, [(200, 500, 300), (220, 520, 800)],
                                          study.StudyOptions(trim=study.Trim(20, 20)), [(20, 20)] * 2),
}


@pytest.mark.parametrize("case", CASES)
def test_the_section_equals_the_notebook_s_cell_7(tmp_path, case):
    label, shards, specs, options, cuts = CASES[case]
    rng = np.random.default_rng(30)
    runs, folders = [], []
    for index, (length, capacity, last_ms) in enumerate(specs, start=1):
        completed, failed = ramp_counts(rng, length, capacity)
        runs.append((completed, last_ms))
        folders.append(counted_run(tmp_path / f"{label}-{index}", label, completed, failed, last_ms, shards))
    if options == "hand":
        options = study.StudyOptions(run_trims=tuple((str(folder), study.Trim(*cut))
                                                     for folder, cut in zip(folders, cuts)))
    row = rows(folders, options).iloc[0]
    expected = notebook_cell_7(runs, options.window, cuts)
    assert row["n"] == expected["n"]
    for key in ("mean", "min", "max", "ci95Low", "ci95High"):
        assert row[key] == pytest.approx(expected[key], rel=1e-12, nan_ok=True), key
