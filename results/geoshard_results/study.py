"""The section "As the study reports it": the headline throughput computed with the study's own
arithmetic, so that a reader can set geoshard's runs beside the paper's table.

The study (the notebooks of its ``data_analysis`` folder) counted the responses of every second,
smoothed the counts with a 50 s rolling mean (``resample("S").count().rolling(50).mean()``), cut the
start and the end of each run (no shards: the first 200 s and the last 20 s; 2 and 3 shards: the
first 80 s), averaged the three runs of a scenario second by second, and reported the mean, minimum
and maximum of that series with a 95% t interval over its values.

Here, per run: the successful operations of each second of ``timeseries.csv`` (all operations but
``CLEANUP``), the rolling mean over ``window`` seconds (pandas' ``rolling(window).mean()``: the first
``window - 1`` seconds have none), then the trim (the seconds after the first ``start`` and before
the last ``end``); per scenario: the per-second mean of its runs over the seconds every run has, and
the mean, minimum, maximum and t interval of that series. Pure functions of DataFrames; no I/O.

Why it differs from geoshard's own figures: the study's interval treats the smoothed seconds as
independent, although neighbouring seconds of a 50 s rolling mean share 49 of their 50 counts, so it
is far too narrow; and it averages every second of a run, whatever the load then, where geoshard
reports the best step that met the latency rule and a batch-means interval of its plateau.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from . import stats
from .data import run_row, sustained_value
from .rundir import Run

STUDY_WINDOW = 50
# (first seconds, last seconds) cut by the study: no shards, and 2 or 3 shards.
UNSHARDED_TRIM = (200, 20)
SHARDED_TRIM = (80, 0)


@dataclass(frozen=True)
class StudyOptions:
    """``--study-window`` and ``--study-trim``; ``trim`` None takes the study's trim per scenario."""

    window: int = STUDY_WINDOW
    trim: tuple[int, int] | None = None

    def __post_init__(self):
        if self.window < 1:
            raise ValueError(f"the rolling window must be at least 1 second, not {self.window}")
        if self.trim is not None and (self.trim[0] < 0 or self.trim[1] < 0):
            raise ValueError(f"the trim must be seconds of 0 or more, not {self.trim[0]}:{self.trim[1]}")


def parse_trim(text: str) -> tuple[int, int]:
    """``START:END`` (or ``START``) seconds cut from the start and the end of every run."""
    start, _, end = text.partition(":")
    try:
        trim = (int(start), int(end or 0))
    except ValueError:
        raise ValueError(f"expected START:END in whole seconds (e.g. 200:20), not {text!r}") from None
    if trim[0] < 0 or trim[1] < 0:
        raise ValueError(f"expected seconds of 0 or more, not {text!r}")
    return trim


def shard_count(run: Run) -> int | None:
    """Shards of the cluster the run measured (run.json's topology), or None when it does not say."""
    shards = (run.meta.get("topology") or {}).get("shards")
    return len(shards) if isinstance(shards, list) else None


def study_trim(run: Run) -> tuple[int, int]:
    """The study's trim for a run: 80 s at the start with 2 or more shards, else 200 s and 20 s."""
    shards = shard_count(run)
    return SHARDED_TRIM if shards is not None and shards >= 2 else UNSHARDED_TRIM


def counts_per_second(per_second: pd.DataFrame, run_id: str) -> pd.Series:
    """Successful operations of each second of one run (``ops`` − ``errors``), indexed by second."""
    rows = per_second[per_second["runId"] == run_id]
    return (rows["ops"] - rows["errors"]).clip(lower=0).set_axis(rows["second"].astype(int)).astype(float)


def smoothed(counts: pd.Series, window: int) -> pd.Series:
    """The study's rolling mean: NaN for the first ``window − 1`` seconds."""
    return counts.rolling(window).mean()


def trimmed(series: pd.Series, start: int, end: int) -> pd.Series:
    """The seconds after the first ``start`` and before the last ``end`` (by position)."""
    return series.iloc[start:len(series) - end] if end else series.iloc[start:]


def pooled(series: list[pd.Series]) -> pd.Series:
    """The runs' per-second mean, over the seconds that every run has a value for."""
    if not series:
        return pd.Series(dtype=float)
    frame = pd.concat(series, axis=1, join="inner")
    return frame.mean(axis=1).dropna()


@dataclass(frozen=True)
class StudyFigures:
    mean: float
    minimum: float
    maximum: float
    low: float
    high: float
    seconds: int


def figures(series: pd.Series) -> StudyFigures:
    """Mean, min, max and the 95% t interval over the series' values (as ``st.t.interval(0.95, n − 1,
    loc=mean, scale=sem)``)."""
    values = series.dropna()
    if not len(values):
        return StudyFigures(*(math.nan,) * 5, 0)
    interval = stats.mean_ci95(values.tolist())
    return StudyFigures(interval.mean, float(values.min()), float(values.max()), interval.low, interval.high,
                        len(values))


def study_frame(runs: list[Run], per_second: pd.DataFrame, options: StudyOptions | None = None) -> pd.DataFrame:
    """One row per scenario: runs, window, trim, seconds kept, the study's figures, and geoshard's own
    headline figure (max sustained, else plateau mean, averaged over the runs) beside them."""
    options = options or StudyOptions()
    rows = []
    for scenario in dict.fromkeys(run.scenario for run in runs):
        group = [run for run in runs if run.scenario == scenario]
        trims = {options.trim or study_trim(run) for run in group}
        series = [trimmed(smoothed(counts_per_second(per_second, run.run_id), options.window), *(
            options.trim or study_trim(run))) for run in group]
        result = figures(pooled(series))
        own = [sustained_value(pd.Series(run_row(run)))[0] for run in group]
        own = [value for value in own if not math.isnan(value)]
        rows.append({
            "scenario": scenario, "runs": len(group), "window": options.window,
            "trim": ", ".join(f"{start} s / {end} s" for start, end in sorted(trims)),
            "seconds": result.seconds, "mean": result.mean, "min": result.minimum, "max": result.maximum,
            "ci95Low": result.low, "ci95High": result.high,
            "geoshard": sum(own) / len(own) if own else math.nan,
        })
    return pd.DataFrame(rows)


def _rate(value: float) -> str:
    return "n/a" if value is None or math.isnan(value) else f"{value:,.1f}"


def section(runs: list[Run], per_second: pd.DataFrame, options: StudyOptions | None = None) -> list[str]:
    """The markdown lines of the section."""
    options = options or StudyOptions()
    frame = study_frame(runs, per_second, options)
    trim_rule = (f"the first {options.trim[0]} s and the last {options.trim[1]} s of every run (`--study-trim`)"
                 if options.trim else "the first 200 s and the last 20 s of a run without shards, the first 80 s "
                 "of a run on 2 or more shards (`run.json` topology; `--study-trim START:END` sets one trim for all)")
    lines = ["## As the study reports it", "",
             f"The study's arithmetic on these runs: successful operations per second, a {options.window} s rolling "
             f"mean (`--study-window`), cut by {trim_rule}, averaged over the runs of a scenario second by "
             "second (over the seconds every run has), then the mean, minimum and maximum of that series and a "
             "95% t interval over its seconds. The last column is geoshard's own figure (max sustained "
             "throughput, else the plateau mean; mean over the runs).", "",
             "| scenario | runs | window (s) | trim (start / end) | seconds | mean | min | max | 95% t interval "
             "| geoshard |",
             "|---|---:|---:|---|---:|---:|---:|---:|---|---:|"]
    for _, row in frame.iterrows():
        interval = ("n/a" if math.isnan(row["ci95Low"]) else f"{_rate(row['ci95Low'])} – {_rate(row['ci95High'])}")
        lines.append(f"| {row['scenario']} | {row['runs']} | {row['window']} | {row['trim']} | {row['seconds']} "
                     f"| {_rate(row['mean'])} | {_rate(row['min'])} | {_rate(row['max'])} | {interval} "
                     f"| {_rate(row['geoshard'])} |")
    lines += ["", "Why the two differ: the study's interval treats the smoothed seconds as independent, but "
              f"neighbouring seconds of a {options.window} s rolling mean share all but one of their counts, so "
              "the interval is much too narrow; and its mean covers every second after the trim, at whatever load "
              "the ramp then offered, including the steps that broke the latency rule, where geoshard reports the "
              "best step that met the rule and a batch-means interval of its plateau. A scenario with no second "
              "left after the rolling window and the trim shows n/a: shorten them for short runs.", ""]
    return lines
