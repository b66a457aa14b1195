"""The section "As the study reports it": the headline throughput computed as the study computed the
paper's table, so that a reader can set geoshard's runs beside it.

The study's client wrote a ``ReceivedResponse`` line after every request, failed ones included, and
its notebook ``data_analysis/throughput_all_average.ipynb`` (Corgam/mongo_benchmark) counted those
lines per second (``resample("S")``: the last, partial second is a bin of its own), smoothed the
counts with a trailing rolling mean of 50 seconds, cut every run on its own
(``seconds.tail(-START).head(-END)``: no shards 200 s and 20 s; 2 and 3 shards 80 s at the start and
an end chosen by hand per run: 2S 5, 160 and 0 s, 3S 50, 10 and 50 s), concatenated the three cut
runs of a scenario (``cut_1.append(cut_2).append(cut_3)``) and printed, in cell 7, their max, min and
``mean_confidence_interval``: the mean and a 95% t interval (``scipy.stats.sem`` with ddof 1 times
``t.ppf(0.975, n - 1)``) over all the concatenated values. That printout is the paper's table.

Here, per run: the operations that completed in each second of ``timeseries.csv`` (``ops``: failed
ones included, as the study counted them; all operations but ``CLEANUP``, which is no request; a
second with no row counts 0; the last, partial interval stays a bin of its own), the rolling mean,
the run's cut, then per scenario the concatenation and the same n, mean, min, max and interval (the
notebook's one-second bins start at a run's first response, geoshard's at its first interval). Where
the notebook's arithmetic gives NaN (a start cut shorter than window − 1 keeps seconds without a
rolling mean, which poisons ``np.mean``), so does this. Pure functions of runs; no I/O.

Cells 4-6 of the notebook (the per-second mean of the three runs, behind the figures) print only a
mean and a max that are in no table of the paper; they are not computed here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats as scipy_stats

from .data import EXCLUDED_OPERATIONS, run_row, sustained_value
from .rundir import Run
from .section import Section

STUDY_WINDOW = 50


@dataclass(frozen=True)
class Trim:
    """Whole seconds cut from the start and from the end of one run (after the rolling mean)."""

    start: int
    end: int

    def __post_init__(self):
        if self.start < 0 or self.end < 0:
            raise ValueError(f"a cut must be whole seconds of 0 or more, not {self.start}:{self.end}")

    def __str__(self) -> str:
        return f"{self.start}:{self.end}"


# The study's cuts: no shards, and the start of a run on 2 or 3 shards (its end was picked per run).
UNSHARDED_TRIM = Trim(200, 20)
SHARDED_TRIM = Trim(80, 0)
# The ends the study picked by hand for its own runs (cell 7), quoted in the section.
STUDY_SHARDED_ENDS = {"2S": (5, 160, 0), "3S": (50, 10, 50)}


def parse_trim(text: str) -> Trim:
    """``START:END`` whole seconds cut from the start and the end of a run. Both are needed: a lone number
    could mean either end, and was once read as ``START:0`` without a word."""
    start, colon, end = text.partition(":")
    try:
        if not colon:
            raise ValueError
        seconds = int(start), int(end)
    except ValueError:
        raise ValueError(f"expected START:END in whole seconds (e.g. 200:20, or 5:0 to cut the start only), "
                         f"not {text!r}") from None
    if min(seconds) < 0:
        raise ValueError(f"expected seconds of 0 or more, not {text!r}")
    return Trim(*seconds)


def parse_run_trim(text: str) -> tuple[str, Trim]:
    """``RUN_DIR=START:END``: one run's own cut (the run folder, or its run id)."""
    run, equals, trim = text.rpartition("=")
    if not equals or not run.strip():
        raise ValueError(f"expected RUN_DIR=START:END (e.g. results/runs/2S-1=80:5), not {text!r}")
    return run.strip(), parse_trim(trim)


@dataclass(frozen=True)
class StudyOptions:
    """``--study-window``, ``--study-trim`` (every run) and ``--study-trim-run`` (one run each).

    A run's cut is its own ``run_trims`` entry, else ``trim``, else the study's by topology."""

    window: int = STUDY_WINDOW
    trim: Trim | None = None
    run_trims: tuple[tuple[str, Trim], ...] = field(default=())

    def __post_init__(self):
        if self.window < 1:
            raise ValueError(f"the rolling window must be at least 1 second, not {self.window}")
        names = [name for name, _ in self.run_trims]
        twice = sorted({name for name in names if names.count(name) > 1})
        if twice:
            raise ValueError(f"{twice[0]} is given more than one cut")


def shard_count(run: Run) -> int | None:
    """Shards of the cluster the run measured (run.json's topology), or None when it does not say."""
    shards = (run.meta.get("topology") or {}).get("shards")
    return len(shards) if isinstance(shards, list) else None


def study_trim(run: Run) -> Trim:
    """The study's cut for a run: 80 s at the start with 2 or more shards, else 200 s and 20 s."""
    shards = shard_count(run)
    return SHARDED_TRIM if shards is not None and shards >= 2 else UNSHARDED_TRIM


def is_load(run: Run) -> bool:
    """Whether a run folder is a load (a merged one: all its clients loaded). The study's table is of the
    queries a run measured; a load's inserts are no such figure."""
    command = run.meta.get("command")
    if command == "merge":
        commands = {source.get("command") for source in run.meta.get("sources") or [] if isinstance(source, dict)}
        return commands == {"load"}
    return command == "load"


def study_runs(runs: list[Run]) -> list[Run]:
    """The runs of the section: every one but the loads."""
    return [run for run in runs if not is_load(run)]


def _names(run: Run, name: str) -> bool:
    """Whether a ``--study-trim-run`` name means this run: its folder (any spelling) or its run id."""
    return name == run.run_id or Path(name).resolve() == run.path.resolve()


def run_trims(runs: list[Run], options: StudyOptions) -> list[Trim]:
    """Each run's cut, in the order of ``runs``. Raises ValueError naming a ``--study-trim-run`` that
    matches no run, or a run that two of them name."""
    chosen = []
    for run in runs:
        own = [(name, trim) for name, trim in options.run_trims if _names(run, name)]
        if len(own) > 1:
            raise ValueError(f"--study-trim-run: {own[0][0]} and {own[1][0]} both name the run {run.path}")
        chosen.append(own[0][1] if own else options.trim or study_trim(run))
    for name, _ in options.run_trims:
        if not any(_names(run, name) for run in runs):
            raise ValueError(f"--study-trim-run: {name} is none of the report's run folders (give the run "
                             f"folder or its id: {', '.join(run.run_id for run in runs)})")
    return chosen


def completed_per_second(run: Run, successful_only: bool = False) -> pd.Series:
    """Requests that completed in each second of one run (every operation but CLEANUP; failed ones too
    unless ``successful_only``), indexed by second 1..last; a second without a row counts 0."""
    rows = run.timeseries
    rows = rows[~rows["operation"].isin(EXCLUDED_OPERATIONS)] if len(rows) else rows
    if not len(rows):
        return pd.Series(dtype=float)
    counts = rows["ops"] - rows["errors"] if successful_only else rows["ops"]
    per_second = counts.groupby(rows["second"].astype(int)).sum()
    seconds = pd.RangeIndex(1, int(per_second.index.max()) + 1, name="second")
    return per_second.reindex(seconds, fill_value=0).astype(float)


def smoothed(counts: pd.Series, window: int) -> pd.Series:
    """The study's trailing rolling mean: NaN for the first ``window − 1`` seconds."""
    return counts.rolling(window).mean()


def cut(series: pd.Series, trim: Trim) -> pd.Series:
    """``series.tail(-start).head(-end)`` as the notebook wrote it (a 0 leaves that side alone)."""
    return series.iloc[trim.start:max(trim.start, len(series) - trim.end)]


@dataclass(frozen=True)
class StudyFigures:
    """Cell 7's printout: n values, their mean, min, max and 95% t interval."""

    n: int
    mean: float
    minimum: float
    maximum: float
    low: float
    high: float


def figures(values: pd.Series) -> StudyFigures:
    """``all.max()``, ``all.min()`` (pandas: NaN skipped) and ``mean_confidence_interval(all)``
    (numpy: n counts every value, a NaN makes the mean and the interval NaN; ddof 1;
    t(0.975, n − 1) from scipy as in the notebook; fewer than two values have no interval)."""
    data = np.asarray(values, dtype=float)
    n = int(data.size)
    if n == 0:
        return StudyFigures(0, *(math.nan,) * 5)
    mean = float(np.mean(data))
    if n < 2 or math.isnan(mean):
        low = high = math.nan
    else:
        half = float(scipy_stats.t.ppf(0.975, n - 1)) * float(data.std(ddof=1)) / math.sqrt(n)
        low, high = mean - half, mean + half
    return StudyFigures(n, mean, float(values.min()), float(values.max()), low, high)


def concatenated(runs: list[Run], trims: list[Trim], window: int, successful_only: bool = False) -> pd.Series:
    """The runs' smoothed, cut series one after the other (cell 7's ``append``)."""
    parts = [cut(smoothed(completed_per_second(run, successful_only), window), trim)
             for run, trim in zip(runs, trims)]
    parts = [part for part in parts if len(part)]
    return pd.concat(parts, ignore_index=True) if parts else pd.Series(dtype=float)


def _cuts_label(trims: list[Trim]) -> str:
    labels = [str(trim) for trim in trims]
    return f"{labels[0]} (each)" if len(set(labels)) == 1 and len(labels) > 1 else ", ".join(labels)


def study_frame(runs: list[Run], options: StudyOptions | None = None) -> pd.DataFrame:
    """One row per scenario (loads left out): runs, window, cuts, the study's figures over every completed
    request, the same mean over successful requests only, and geoshard's own headline figure (max
    sustained, else plateau mean, averaged over the runs)."""
    options = options or StudyOptions()
    runs = study_runs(runs)
    trims = dict(zip((run.run_id for run in runs), run_trims(runs, options)))
    rows = []
    for scenario in dict.fromkeys(run.scenario for run in runs):
        group = [run for run in runs if run.scenario == scenario]
        group_trims = [trims[run.run_id] for run in group]
        result = figures(concatenated(group, group_trims, options.window))
        successful = figures(concatenated(group, group_trims, options.window, successful_only=True))
        own = [sustained_value(pd.Series(run_row(run)))[0] for run in group]
        own = [value for value in own if not math.isnan(value)]
        rows.append({
            "scenario": scenario, "runs": len(group), "window": options.window, "cuts": _cuts_label(group_trims),
            "n": result.n, "mean": result.mean, "min": result.minimum, "max": result.maximum,
            "ci95Low": result.low, "ci95High": result.high, "successfulMean": successful.mean,
            "geoshard": sum(own) / len(own) if own else math.nan,
        })
    return pd.DataFrame(rows)


def _rate(value: float, digits: int = 1) -> str:
    return "n/a" if value is None or math.isnan(value) else f"{value:,.{digits}f}"


def _cut_rule(options: StudyOptions) -> str:
    rule = (f"the first {options.trim.start} s and the last {options.trim.end} s of every run (`--study-trim`)"
            if options.trim else
            "the study's cuts: the first 200 s and the last 20 s of a run without shards, the first 80 s of a run "
            "on 2 or more shards (`run.json` topology)")
    if options.run_trims:
        rule += ", and the runs' own cuts given with `--study-trim-run`"
    return rule


class AsTheStudyReportsIt(Section):
    """The section: ``study_frame`` as a table, with how it was computed and why it differs."""

    title = "As the study reports it"

    def applies(self, frames) -> bool:
        return bool(study_runs(frames.inputs))  # a report of loads only has no such table

    def data(self, frames) -> tuple[pd.DataFrame, StudyOptions]:
        options = frames.study_options or StudyOptions()
        return study_frame(frames.inputs, options), options

    def markdown(self, data, figures) -> list[str]:
        return _lines(*data)


def _lines(frame: pd.DataFrame, options: StudyOptions) -> list[str]:
    """The markdown lines of the section, under its heading."""
    ends = "; ".join(f"{name}: {', '.join(str(end) for end in cuts)} s" for name, cuts in STUDY_SHARDED_ENDS.items())
    lines = ["The paper's table as the study's notebook computed it (cell 7 of `throughput_all_average.ipynb`): "
             "per run, every request that completed in each second, **failed ones included** (the study's client "
             "logged a response after every request, and the notebook counted those lines), a trailing "
             f"{options.window} s rolling mean (`--study-window`), cut by {_cut_rule(options)}; then the cut "
             "runs of a scenario one after the other, and n, mean, minimum, maximum and a 95% t interval over "
             "all their values. `CLEANUP` is no request; the last, partial second is a value of its own. "
             "Cuts are START:END seconds per run.", "",
             f"The study chose the end cut of each sharded run by hand ({ends}); give such cuts with "
             "`--study-trim-run RUN_DIR=START:END`. The column \"successful only\" is the same mean over "
             "successful requests; the last column is geoshard's own figure (successful operations only: max "
             "sustained throughput, else the plateau mean; mean over the runs).", "",
             "| scenario | runs | window (s) | cuts (s) | n | mean | min | max | 95% t interval "
             "| successful only | geoshard |",
             "|---|---:|---:|---|---:|---:|---:|---:|---|---:|---:|"]
    for _, row in frame.iterrows():
        interval = ("n/a" if math.isnan(row["ci95Low"]) else f"{_rate(row['ci95Low'], 2)} – {_rate(row['ci95High'], 2)}")
        lines.append(f"| {row['scenario']} | {row['runs']} | {row['window']} | {row['cuts']} | {row['n']} "
                     f"| {_rate(row['mean'], 2)} | {_rate(row['min'], 2)} | {_rate(row['max'], 2)} | {interval} "
                     f"| {_rate(row['successfulMean'], 2)} | {_rate(row['geoshard'])} |")
    lines += ["", "Why the two differ: the study's interval treats the smoothed seconds as independent, but "
              f"neighbouring seconds of a {options.window} s rolling mean share all but one of their counts, so "
              "the interval is much too narrow; its mean covers every second after the cut, at whatever load "
              "the ramp then offered, including the steps that broke the latency rule, and counts failed "
              "requests; geoshard reports the best step that met the rule and a batch-means interval of its "
              "plateau. n 0 (all n/a) means no second was left after the cuts: shorten them for short runs; a "
              f"start cut under {options.window - 1} s keeps seconds without a rolling mean, which makes the "
              "notebook's mean and interval NaN (n/a) as well.", ""]
    return lines
