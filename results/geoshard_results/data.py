"""Pure transformations: runs in, pandas DataFrames out. Nothing here reads files or draws.

Column names follow the run folder's (camelCase); ``runId`` and ``scenario`` identify the rows.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pandas as pd

from . import hlog, stats
from .rundir import Run

# CLEANUP is the binding's flush at the end of a thread, not part of the measured workload.
EXCLUDED_OPERATIONS = ("CLEANUP",)
LATENCY_PERCENTILES = (50.0, 95.0, 98.0, 99.0)
# Intervals shorter than this (the last, partial one) give noisy rates and are left out of plots.
MIN_INTERVAL_MS = 500
# A recomputed plateau mean further than this from the harness's own is reported.
CROSSCHECK_TOLERANCE = 0.005
BREACH_VERDICTS = ("sla", "timeout", "errors", "nothing")  # "nothing": no operation succeeded in the step
# Runs up to this long are plotted per second; longer ones in windows of a few seconds (about
# WINDOW_POINTS points per line), throughput as ops over the window, latency from merged histograms.
ONE_SECOND_UP_TO_S = 1200
WINDOW_POINTS = 600
_NICE_WINDOWS = (2, 3, 5, 10, 15, 20, 30, 60, 120, 300, 600)


def _number(value) -> float:
    """A JSON number as float; anything else (null, missing, text) as NaN."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return math.nan
    return float(value)


def scenario_order(frame: pd.DataFrame) -> list[str]:
    """Scenarios in the order they first appear (the order the runs were given in)."""
    return list(dict.fromkeys(frame["scenario"])) if len(frame) else []


# One row per run --------------------------------------------------------------------------------


def run_row(run: Run) -> dict:
    summary, meta = run.summary, run.meta
    ramp = summary.get("ramp") or {}
    sla = ramp.get("sla") or {}
    plateau = summary.get("plateau") or {}
    has_ramp = bool(ramp)
    threads = _number(summary.get("threads", meta.get("threads")))
    peak_threads = _number(summary.get("peakThreads"))
    return {
        "runId": run.run_id,
        "runUuid": meta.get("runUuid"),  # run.json's own id (None before runs had one): a run counts once
        "scenario": run.scenario,
        "path": str(run.path),
        "command": meta.get("command"),
        "binding": (meta.get("binding") or {}).get("name"),
        "workload": meta.get("workload"),
        "status": meta.get("status"),
        "stopReason": summary.get("stopReason") or meta.get("stopReason"),
        "startTime": meta.get("startTime"),
        "gitCommit": (meta.get("versions") or {}).get("gitCommit"),
        "threads": threads,
        "runtimeS": _number(summary.get("runtimeMs")) / 1000.0,
        "operations": _number(summary.get("operations")),
        "errors": _number(summary.get("errors")),
        "throughput": _number(summary.get("throughput")),
        "hasRamp": has_ramp,
        "rampMode": ramp.get("mode"),
        "sweepGroup": (summary.get("sweep") or {}).get("group", "sweep") if summary.get("sweep") else None,
        "slaPercentile": _number(sla.get("percentile")),
        "slaLatencyMs": _number(sla.get("latencyMs")),
        "maxSustained": _number(summary.get("maxSustainedThroughput")),
        "peakStep": _number(summary.get("peakStep")),
        "peakThreads": peak_threads,
        "threadsAtPeak": peak_threads if has_ramp else threads,
        "plateauFrom": _number(plateau.get("fromSecond")),
        "plateauTo": _number(plateau.get("toSecond")),
        "plateauSeconds": _number(plateau.get("seconds")),
        "plateauMean": _number(plateau.get("meanOpsPerSec")),
        "plateauMin": _number(plateau.get("minOpsPerSec")),
        "plateauMax": _number(plateau.get("maxOpsPerSec")),
        "ci95Low": _number(plateau.get("ci95Low")),
        "ci95High": _number(plateau.get("ci95High")),
        "batchSeconds": _number(plateau.get("batchSeconds")),
        "batches": _number(plateau.get("batches")),
    }


def runs_frame(runs: list[Run]) -> pd.DataFrame:
    """One row per run with what the summary and run.json say (NaN where a field is absent)."""
    return pd.DataFrame([run_row(run) for run in runs])


def sustained_value(row: pd.Series) -> tuple[float, str]:
    """The throughput a run sustained, and where it comes from.

    A ramp run's maxSustainedThroughput (NaN if no step met the rule); without a ramp the plateau
    mean, and for older runs without a plateau the summary's overall throughput. A sweep has none
    (NaN, "sweep"): its overall throughput adds reads, inserts and upserts at every offered rate, which
    is no one's maximum; its steps are shown as a sweep.
    """
    if row["sweepGroup"] is not None and not (isinstance(row["sweepGroup"], float) and math.isnan(row["sweepGroup"])):
        return math.nan, "sweep"
    if row["hasRamp"]:
        return row["maxSustained"], "ramp"
    if not math.isnan(row["plateauMean"]):
        return row["plateauMean"], "plateau mean"
    return row["throughput"], "overall"


def _join_counts(values) -> str:
    counts = Counter(str(v) for v in values if v is not None and not (isinstance(v, float) and math.isnan(v)))
    if not counts:
        return "n/a"
    return ", ".join(name if count == 1 else f"{name} ×{count}" for name, count in counts.items())


def join_unique(values) -> str:
    unique = [v for v in dict.fromkeys(values) if not (isinstance(v, float) and math.isnan(v)) and v is not None]
    if not unique:
        return "n/a"
    return ", ".join(f"{v:g}" if isinstance(v, float) else str(v) for v in unique)


def scenario_table(runs: pd.DataFrame) -> pd.DataFrame:
    """Per scenario: sustained throughput, plateau mean/min/max, 95% CI, stop reason, threads at peak.

    One run: its own numbers, with the harness's batch-means interval for the plateau mean.
    Several runs (repeats): means over the runs, min of the minima, max of the maxima, and a t
    interval over the runs' plateau means.
    """
    rows = []
    for scenario in scenario_order(runs):
        group = runs[runs["scenario"] == scenario]
        sustained = [sustained_value(row) for _, row in group.iterrows()]
        values = [value for value, _ in sustained]
        if len(group) == 1:
            row = group.iloc[0]
            low, high = row["ci95Low"], row["ci95High"]
            method = (f"batch means ({row['batches']:.0f} × {row['batchSeconds']:.0f} s)"
                      if not math.isnan(low) else "n/a")
        else:
            interval = stats.mean_ci95(group["plateauMean"])
            low, high = interval.low, interval.high
            method = f"t over {interval.n} runs" if interval.n >= 2 else "n/a"
        rows.append({
            "scenario": scenario,
            "runs": len(group),
            "binding": join_unique(group["binding"]),
            "sustained": float(np.nanmean(values)) if not all(math.isnan(v) for v in values) else math.nan,
            "sustainedSource": join_unique([source for _, source in sustained]),
            "throughput": float(group["throughput"].mean()),
            "plateauMean": float(group["plateauMean"].mean()),
            "plateauMin": float(group["plateauMin"].min()),
            "plateauMax": float(group["plateauMax"].max()),
            "ci95Low": low,
            "ci95High": high,
            "ciMethod": method,
            "stopReason": _join_counts(group["stopReason"]),
            "threadsAtPeak": join_unique(list(group["threadsAtPeak"])),
        })
    return pd.DataFrame(rows)


def max_throughput_bars(runs: pd.DataFrame) -> pd.DataFrame:
    """What the bar chart draws, per scenario: bar height, its error bar and the points over it.

    ``value`` is the mean over the runs of each run's sustained throughput; with two runs or more
    ``errLow``/``errHigh`` is the 95% t interval over runs. With one run that has a plateau,
    ``pointMean``/``pointLow``/``pointHigh`` is the plateau mean and its batch-means interval.
    ``runValues`` lists each run's value (drawn as dots for repeats).
    """
    rows = []
    for scenario in scenario_order(runs):
        group = runs[runs["scenario"] == scenario]
        sustained = [sustained_value(row) for _, row in group.iterrows()]
        if all(source == "sweep" for _, source in sustained):
            continue  # a sweep has no maximum: drawn as a sweep (offered against achieved rates)
        values = [value for value, _ in sustained]
        interval = stats.mean_ci95(values)
        single = group.iloc[0]
        has_point = len(group) == 1 and not math.isnan(single["ci95Low"])
        rows.append({
            "scenario": scenario,
            "runs": len(group),
            "value": interval.mean,
            "source": join_unique([source for _, source in sustained]),
            "errLow": interval.low,
            "errHigh": interval.high,
            "pointMean": single["plateauMean"] if has_point else math.nan,
            "pointLow": single["ci95Low"] if has_point else math.nan,
            "pointHigh": single["ci95High"] if has_point else math.nan,
            "runValues": values,
        })
    return pd.DataFrame(rows)


# Time series -----------------------------------------------------------------------------------


def timeseries_frame(runs: list[Run]) -> pd.DataFrame:
    """All runs' timeseries.csv rows with runId and scenario columns added."""
    frames = [run.timeseries.assign(runId=run.run_id, scenario=run.scenario) for run in runs]
    frames = [frame for frame in frames if len(frame)]
    if not frames:
        return pd.DataFrame(columns=["runId", "scenario", *runs[0].timeseries.columns] if runs else [])
    return pd.concat(frames, ignore_index=True)


def throughput_per_second(timeseries: pd.DataFrame, excluded=EXCLUDED_OPERATIONS,
                          min_interval_ms: int = MIN_INTERVAL_MS) -> pd.DataFrame:
    """Per run and second: successful operations (``ops`` − ``errors``, all operations but ``excluded``)
    / interval length. A failed operation is never throughput; ``errors`` stays beside it.

    Seconds in which nothing completed have no rows in timeseries.csv; they come back here as zero
    throughput so that a stall shows. Intervals shorter than ``min_interval_ms`` are dropped unless
    the run has nothing longer.
    Columns: runId, scenario, second, elapsedS (interval midpoint), intervalMs, ops, errors, opsPerSec,
    threads.
    """
    columns = ["runId", "scenario", "second", "elapsedS", "intervalMs", "ops", "errors", "opsPerSec", "threads"]
    measured = timeseries[~timeseries["operation"].isin(excluded)] if len(timeseries) else timeseries
    if not len(measured):
        return pd.DataFrame(columns=columns)
    per_second = (measured.groupby(["runId", "scenario", "second"], sort=False)
                  .agg(ops=("ops", "sum"), errors=("errors", "sum"), intervalMs=("intervalMs", "max"),
                       threads=("threads", "max"))
                  .reset_index())
    filled = []
    for (run_id, scenario), group in per_second.groupby(["runId", "scenario"], sort=False):
        seconds = pd.RangeIndex(1, int(group["second"].max()) + 1, name="second")
        group = group.set_index("second").reindex(seconds)
        group["runId"], group["scenario"] = run_id, scenario
        group[["ops", "errors"]] = group[["ops", "errors"]].fillna(0)
        group["intervalMs"] = group["intervalMs"].fillna(1000)
        group["threads"] = group["threads"].ffill().fillna(0)
        filled.append(group.reset_index())
    frame = pd.concat(filled, ignore_index=True)
    frame = frame[_long_enough(frame, frame["intervalMs"], min_interval_ms)].copy()
    frame["opsPerSec"] = succeeded(frame) / (frame["intervalMs"] / 1000.0)
    frame["elapsedS"] = frame["second"] - 1 + frame["intervalMs"] / 2000.0
    return frame[columns].reset_index(drop=True)


def succeeded(frame: pd.DataFrame) -> pd.Series:
    """Operations that succeeded: ops − errors, never below zero (an error may be counted in the
    interval next to the one its latency fell in)."""
    return (frame["ops"] - frame["errors"]).clip(lower=0)


def _long_enough(frame: pd.DataFrame, interval_ms: pd.Series, min_interval_ms: float) -> pd.Series:
    """Rows whose interval is at least ``min_interval_ms``, or all rows of a run with no such interval."""
    long = interval_ms >= min_interval_ms
    run_has_long = long.groupby(frame["runId"]).transform("any")
    return long | ~run_has_long


def window_seconds(longest_second: float) -> int:
    """Plot resolution: 1 s up to ONE_SECOND_UP_TO_S, else a round window giving ~WINDOW_POINTS points."""
    if not longest_second or math.isnan(longest_second) or longest_second <= ONE_SECOND_UP_TO_S:
        return 1
    wanted = longest_second / WINDOW_POINTS
    return next((window for window in _NICE_WINDOWS if window >= wanted), _NICE_WINDOWS[-1])


def resample_throughput(per_second: pd.DataFrame, window: int) -> pd.DataFrame:
    """Per-second throughput in windows of ``window`` seconds: successful ops / seconds of the window."""
    if window <= 1 or not len(per_second):
        return per_second
    frame = per_second.assign(window=(per_second["second"] - 1) // window)
    grouped = (frame.groupby(["runId", "scenario", "window"], sort=False)
               .agg(second=("second", "max"), start=("second", "min"), ops=("ops", "sum"), errors=("errors", "sum"),
                    intervalMs=("intervalMs", "sum"), threads=("threads", "max"))
               .reset_index())
    grouped["opsPerSec"] = succeeded(grouped) / (grouped["intervalMs"] / 1000.0)
    grouped["elapsedS"] = grouped["start"] - 1 + grouped["intervalMs"] / 2000.0
    return grouped[per_second.columns].reset_index(drop=True)


def scenario_mean_throughput(per_second: pd.DataFrame) -> pd.DataFrame:
    """Mean per-second throughput over a scenario's runs, second by second."""
    if not len(per_second):
        return pd.DataFrame(columns=["scenario", "second", "elapsedS", "opsPerSec", "runs"])
    return (per_second.groupby(["scenario", "second"], sort=False)
            .agg(elapsedS=("elapsedS", "mean"), opsPerSec=("opsPerSec", "mean"), runs=("runId", "nunique"))
            .reset_index())


def threads_over_time(per_second: pd.DataFrame) -> pd.DataFrame:
    """Client threads per scenario and second (the median over repeats)."""
    if not len(per_second):
        return pd.DataFrame(columns=["scenario", "second", "elapsedS", "threads"])
    return (per_second.groupby(["scenario", "second"], sort=False)
            .agg(elapsedS=("elapsedS", "mean"), threads=("threads", "median"))
            .reset_index())


# Ramp steps -------------------------------------------------------------------------------------

STEP_COLUMNS = ["runId", "scenario", "mode", "step", "threads", "offeredOpsPerSec", "startSecond", "endSecond",
                "operations", "errors", "timeouts", "throughput", "p50Us", "p95Us", "p98Us", "p99Us", "maxUs",
                "verdict", "isPeak"]


def steps_frame(runs: list[Run]) -> pd.DataFrame:
    """Every ramp step of every run (runs without a ramp contribute nothing)."""
    rows = []
    for run in runs:
        ramp = run.summary.get("ramp") or {}
        peak = _number(run.summary.get("peakStep"))
        for step in ramp.get("steps") or []:
            row = {column: _number(step.get(column)) for column in STEP_COLUMNS[3:-2]}
            row.update(runId=run.run_id, scenario=run.scenario, mode=ramp.get("mode") or "threads",
                       verdict=str(step.get("verdict") or "n/a"), isPeak=_number(step.get("step")) == peak)
            rows.append(row)
    return pd.DataFrame(rows, columns=STEP_COLUMNS)


def throughput_vs_threads(runs: pd.DataFrame, steps: pd.DataFrame) -> pd.DataFrame:
    """Points of the throughput-versus-threads plot: every ramp step, and one point per run
    without a ramp (its threads and overall throughput, verdict ``run``). Sweeps are not drawn here:
    their thread count is not their load (the sweep figure shows them)."""
    points = steps[["runId", "scenario", "mode", "step", "threads", "offeredOpsPerSec", "throughput",
                    "verdict", "isPeak"]]
    plain = runs[~runs["hasRamp"] & runs["sweepGroup"].isna()] if len(runs) else runs
    if len(plain):
        extra = pd.DataFrame({"runId": plain["runId"], "scenario": plain["scenario"], "mode": "threads",
                              "step": math.nan, "threads": plain["threads"], "offeredOpsPerSec": math.nan,
                              "throughput": plain["throughput"], "verdict": "run", "isPeak": False})
        points = pd.concat([points, extra], ignore_index=True) if len(points) else extra
    return points.reset_index(drop=True)


def step_boundaries(steps: pd.DataFrame) -> pd.DataFrame:
    """Distinct step starts (elapsed seconds) per scenario with the threads of the step."""
    if not len(steps):
        return pd.DataFrame(columns=["scenario", "elapsedS", "threads", "offeredOpsPerSec"])
    frame = steps.assign(elapsedS=steps["startSecond"] - 1)
    return (frame.groupby(["scenario", "elapsedS"], sort=False)
            .agg(threads=("threads", "median"), offeredOpsPerSec=("offeredOpsPerSec", "median"))
            .reset_index())


# Latencies from the interval logs ---------------------------------------------------------------


def intervals_frame(runs: list[Run]) -> pd.DataFrame:
    """Every interval histogram (still compressed) with the run's second it belongs to.

    Columns: runId, scenario, operation, second, intervalMs, payload, source ("file:line").
    """
    frames = []
    for run in runs:
        t0 = run.timeseries["startEpochMs"].min() if len(run.timeseries) else math.nan
        for operation, log in run.hlogs.items():
            intervals = log.intervals
            if not len(intervals):
                continue
            absolute = log.absolute_start_ms()
            if math.isnan(t0) or absolute.isna().any():
                second = intervals["startSec"].round() + 1  # no common clock: count from the log's start
            else:
                second = ((absolute - t0) / 1000.0).round() + 1
            frames.append(pd.DataFrame({
                "runId": run.run_id, "scenario": run.scenario, "operation": operation,
                "second": second.astype("int64"), "intervalMs": (intervals["lengthSec"] * 1000).round(),
                "payload": intervals["payload"],
                "source": [f"{log.path}:{line}" for line in intervals["line"]],
            }))
    if not frames:
        return pd.DataFrame(columns=["runId", "scenario", "operation", "second", "intervalMs", "payload", "source"])
    return pd.concat(frames, ignore_index=True)


def _percentile_column(percentile: float) -> str:
    return f"p{percentile:g}Us".replace(".", "")


def latency_over_time(intervals: pd.DataFrame, excluded=EXCLUDED_OPERATIONS,
                      percentiles=LATENCY_PERCENTILES, min_interval_ms: int = MIN_INTERVAL_MS,
                      window: int = 1) -> pd.DataFrame:
    """All-operation latency percentiles per scenario and second (or ``window`` seconds), from
    merged histograms.

    The histograms of every operation (but ``excluded``), of every second of the window and of every
    repeat of the scenario are added before the percentiles are taken; averaging percentiles would
    be wrong. Short intervals are dropped as in throughput_per_second. ``second`` is the window's
    last second, ``elapsedS`` its middle.
    """
    names = [_percentile_column(p) for p in percentiles]
    columns = ["scenario", "second", "elapsedS", "runs", "count", *names, "maxUs"]
    measured = intervals[~intervals["operation"].isin(excluded)] if len(intervals) else intervals
    if len(measured):
        measured = measured[_long_enough(measured, measured["intervalMs"], min_interval_ms)]
    rows = []
    windows = (measured["second"] - 1) // window if len(measured) else measured["second"]
    for (scenario, _), group in measured.groupby([measured["scenario"], windows], sort=False):
        histogram = hlog.merge_payloads(group["payload"], group["source"])
        values = hlog.percentile_values(histogram, percentiles)
        count = histogram.get_total_count()
        first, last = group["second"].min(), group["second"].max()
        rows.append([scenario, last, (first - 1 + last) / 2, group["runId"].nunique(), count,
                     *(values[p] for p in percentiles), float(histogram.get_max_value()) if count else math.nan])
    return pd.DataFrame(rows, columns=columns).sort_values(["scenario", "second"], kind="stable",
                                                           key=_scenario_key(intervals)).reset_index(drop=True)


def _scenario_key(frame: pd.DataFrame):
    order = {name: index for index, name in enumerate(scenario_order(frame))}
    return lambda column: column.map(order) if column.name == "scenario" else column


def pooled_operation_histograms(intervals: pd.DataFrame) -> dict[tuple[str, str], object]:
    """One merged histogram per (scenario, operation) over all intervals of all its runs."""
    return {key: hlog.merge_payloads(group["payload"], group["source"])
            for key, group in intervals.groupby(["scenario", "operation"], sort=False)}


def distribution_curves(histograms: dict, excluded=EXCLUDED_OPERATIONS) -> pd.DataFrame:
    """HdrHistogram percentile curves per scenario and operation (columns of hlog.percentile_curve)."""
    frames = [hlog.percentile_curve(histogram).assign(scenario=scenario, operation=operation)
              for (scenario, operation), histogram in histograms.items() if operation not in excluded]
    frames = [frame for frame in frames if len(frame)]
    if not frames:
        return pd.DataFrame(columns=["scenario", "operation", "percentile", "valueUs", "inverseTail"])
    return pd.concat(frames, ignore_index=True)


def operations_frame(runs: list[Run]) -> pd.DataFrame:
    """summary.json's perOperation of every run, one row per run and operation."""
    rows = []
    for run in runs:
        for operation, values in run.summary["perOperation"].items():
            row = {"runId": run.run_id, "scenario": run.scenario, "operation": operation}
            row.update({key: _number(values.get(key)) for key in
                        ("count", "errors", "meanUs", "p50Us", "p95Us", "p98Us", "p99Us", "p999Us", "maxUs")})
            rows.append(row)
    return pd.DataFrame(rows, columns=["runId", "scenario", "operation", "count", "errors", "meanUs", "p50Us",
                                       "p95Us", "p98Us", "p99Us", "p999Us", "maxUs"])


def operation_table(operations: pd.DataFrame, histograms: dict) -> pd.DataFrame:
    """Per scenario and operation: count, errors, p50/p95/p99/max latency (µs).

    One run: summary.json's numbers as the harness computed them. Several runs: counts and errors
    added, the maximum of the maxima, and percentiles of the pooled histograms (``pooled`` True).
    """
    rows = []
    for (scenario, operation), group in operations.groupby(["scenario", "operation"], sort=False):
        row = {"scenario": scenario, "operation": operation, "runs": len(group),
               "count": group["count"].sum(), "errors": group["errors"].sum(), "maxUs": group["maxUs"].max()}
        if len(group) == 1:
            row.update({key: group[key].iloc[0] for key in ("p50Us", "p95Us", "p99Us")}, pooled=False)
        else:
            histogram = histograms.get((scenario, operation))
            values = hlog.percentile_values(histogram, (50.0, 95.0, 99.0)) if histogram is not None else {}
            row.update(p50Us=values.get(50.0, math.nan), p95Us=values.get(95.0, math.nan),
                       p99Us=values.get(99.0, math.nan), pooled=True)
        rows.append(row)
    return pd.DataFrame(rows, columns=["scenario", "operation", "runs", "count", "errors", "p50Us", "p95Us",
                                       "p99Us", "maxUs", "pooled"])


# Cross-check -----------------------------------------------------------------------------------


def plateau_crosscheck(runs: pd.DataFrame, per_second: pd.DataFrame,
                       tolerance: float = CROSSCHECK_TOLERANCE) -> pd.DataFrame:
    """The harness's plateau statistics recomputed from timeseries.csv, run by run.

    ``agrees`` is False when the recomputed mean is further than ``tolerance`` (relative) from the
    harness's; such runs are worth a look (a clock or file problem), not silently trusted.
    """
    rows = []
    for _, run in runs[~runs["plateauMean"].isna()].iterrows():
        seconds = per_second[(per_second["runId"] == run["runId"]) & (per_second["second"] >= run["plateauFrom"])
                             & (per_second["second"] <= run["plateauTo"])]
        batch = int(run["batchSeconds"]) if not math.isnan(run["batchSeconds"]) else 0
        result = stats.batch_means(seconds["opsPerSec"], batch)
        difference = abs(result.mean - run["plateauMean"]) / max(abs(run["plateauMean"]), 1e-9)
        rows.append({"runId": run["runId"], "scenario": run["scenario"], "harnessMean": run["plateauMean"],
                     "recomputedMean": result.mean, "relativeDifference": difference,
                     "recomputedLow": result.low, "recomputedHigh": result.high, "seconds": len(seconds),
                     "agrees": bool(difference <= tolerance)})
    return pd.DataFrame(rows, columns=["runId", "scenario", "harnessMean", "recomputedMean", "relativeDifference",
                                       "recomputedLow", "recomputedHigh", "seconds", "agrees"])
