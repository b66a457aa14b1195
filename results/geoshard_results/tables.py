"""Tables for people: numbers formatted with units, and Markdown rendering. Pure functions."""

from __future__ import annotations

import math

import pandas as pd

NA = "n/a"


def _missing(value) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def fmt_rate(value) -> str:
    """Throughput in ops/s: thousands separated, one decimal below 100."""
    if _missing(value):
        return NA
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:,.1f}"


def fmt_ms(microseconds) -> str:
    """A latency given in µs, shown in ms with two decimals."""
    if _missing(microseconds):
        return NA
    return f"{microseconds / 1000.0:,.2f}"


def fmt_count(value) -> str:
    return NA if _missing(value) else f"{value:,.0f}"


def fmt_plain(value) -> str:
    if _missing(value):
        return NA
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def fmt_interval(low, high) -> str:
    if _missing(low) or _missing(high):
        return NA
    return f"{fmt_rate(low)} – {fmt_rate(high)}"


def markdown_table(table: pd.DataFrame, right: list[str] | None = None) -> str:
    """A GitHub-flavoured Markdown table of strings; ``right`` columns are right-aligned."""
    right = set(right or [])

    def cell(value) -> str:
        return str(value).replace("|", "\\|").replace("\n", " ")

    header = "| " + " | ".join(cell(c) for c in table.columns) + " |"
    rule = "|" + "|".join("---:" if c in right else "---" for c in table.columns) + "|"
    body = ["| " + " | ".join(cell(v) for v in row) + " |" for row in table.itertuples(index=False)]
    return "\n".join([header, rule, *body])


# The report's tables ----------------------------------------------------------------------------


def scenario_summary(scenarios: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    table = pd.DataFrame({
        "Scenario": scenarios["scenario"],
        "Runs": scenarios["runs"].map(fmt_count),
        "Max sustained (ops/s)": [NA + " (sweep)" if s == "sweep" else fmt_rate(v) + ("" if s == "ramp" or v != v else "*")
                                  for v, s in zip(scenarios["sustained"], scenarios["sustainedSource"])],
        "Plateau mean (ops/s)": scenarios["plateauMean"].map(fmt_rate),
        "Plateau min": scenarios["plateauMin"].map(fmt_rate),
        "Plateau max": scenarios["plateauMax"].map(fmt_rate),
        "95% CI of plateau mean": [fmt_interval(lo, hi) for lo, hi in zip(scenarios["ci95Low"], scenarios["ci95High"])],
        "CI method": scenarios["ciMethod"],
        "Stop reason": scenarios["stopReason"],
        "Threads at peak": scenarios["threadsAtPeak"],
    })
    return table, ["Runs", "Max sustained (ops/s)", "Plateau mean (ops/s)", "Plateau min", "Plateau max",
                   "Threads at peak"]


def scenario_overview(runs: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    rows = []
    for scenario in dict.fromkeys(runs["scenario"]):
        group = runs[runs["scenario"] == scenario]
        rows.append({
            "Scenario": scenario,
            "Runs": f"{len(group)}",
            "Binding": _unique(group["binding"]),
            "Workload": _unique(group["workload"]),
            "Command": _unique(group["command"]),
            "Ramp": _unique([mode if not _missing(mode) else f"{sweep} sweep" if not _missing(sweep) else None
                             for mode, sweep in zip(group["rampMode"], group["sweepGroup"])]),
            "Runtime (s)": _unique(group["runtimeS"].map(lambda s: NA if _missing(s) else f"{s:,.0f}")),
            "Started (UTC)": _unique(group["startTime"].map(_short_time)),
            "Commit": _unique(group["gitCommit"]),
        })
    return pd.DataFrame(rows), ["Runs", "Runtime (s)"]


def operation_summary(operations: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    table = pd.DataFrame({
        "Scenario": operations["scenario"],
        "Operation": operations["operation"],
        "Count": operations["count"].map(fmt_count),
        "Errors": operations["errors"].map(fmt_count),
        "p50 (ms)": operations["p50Us"].map(fmt_ms),
        "p95 (ms)": operations["p95Us"].map(fmt_ms),
        "p99 (ms)": operations["p99Us"].map(fmt_ms),
        "Max (ms)": operations["maxUs"].map(fmt_ms),
        "Source": ["pooled .hlog, %d runs" % n if pooled else "summary.json"
                   for n, pooled in zip(operations["runs"], operations["pooled"])],
    })
    return table, ["Count", "Errors", "p50 (ms)", "p95 (ms)", "p99 (ms)", "Max (ms)"]


def steps_summary(steps: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    table = pd.DataFrame({
        "Step": steps["step"].map(fmt_plain),
        "Threads": steps["threads"].map(fmt_plain),
        "Offered (ops/s)": steps["offeredOpsPerSec"].map(fmt_rate),
        "Seconds": [NA if _missing(a) else f"{a:g}–{b:g}" for a, b in zip(steps["startSecond"], steps["endSecond"])],
        "Throughput (ops/s)": steps["throughput"].map(fmt_rate),
        "p50 (ms)": steps["p50Us"].map(fmt_ms),
        "p98 (ms)": steps["p98Us"].map(fmt_ms),
        "p99 (ms)": steps["p99Us"].map(fmt_ms),
        "Max (ms)": steps["maxUs"].map(fmt_ms),
        "Errors": steps["errors"].map(fmt_count),
        "Timeouts": steps["timeouts"].map(fmt_count),
        "Verdict": [v + (" (peak)" if peak else "") for v, peak in zip(steps["verdict"], steps["isPeak"])],
    })
    return table, ["Step", "Threads", "Offered (ops/s)", "Throughput (ops/s)", "p50 (ms)", "p98 (ms)", "p99 (ms)",
                   "Max (ms)", "Errors", "Timeouts"]


def sweep_summary(sweep: pd.DataFrame, queries: list[str]) -> tuple[pd.DataFrame, list[str]]:
    """One scenario's sweep steps ("Queries under inserts"); ``queries``: the query operations shown."""
    offered = [fmt_rate(mean) if _missing(low) or low == high else fmt_interval(low, high)
               for mean, low, high in zip(sweep["offeredOpsPerSec"], sweep["offeredLow"], sweep["offeredHigh"])]
    columns = {
        "Step": sweep["step"].map(fmt_plain),
        "Offered inserts/s": offered,
        "Inserts/s": sweep["insertsPerSec"].map(fmt_rate),
        "Upserts/s": sweep["upsertsPerSec"].map(fmt_rate),
        "Stale/s": sweep["stalePerSec"].map(fmt_rate),
        "Queries/s": sweep["queriesPerSec"].map(fmt_rate),
    }
    columns.update({f"{op}/s": sweep[f"{op}PerSec"].map(fmt_rate) for op in queries})
    columns.update({f"{op} p99 (ms)": sweep[f"{op}P99Us"].map(fmt_ms) for op in queries})
    columns["History at step end"] = sweep["historyAtEnd"].map(fmt_count)
    columns["Verdict"] = sweep["verdict"]
    table = pd.DataFrame(columns)
    return table, [name for name in table.columns if name != "Verdict"]


def runs_summary(runs: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    table = pd.DataFrame({
        "Run folder": runs["runId"],
        "Scenario": runs["scenario"],
        "Stop reason": runs["stopReason"].map(fmt_plain),
        "Threads": runs["threads"].map(fmt_plain),
        "Runtime (s)": runs["runtimeS"].map(lambda s: NA if _missing(s) else f"{s:,.1f}"),
        "Operations": runs["operations"].map(fmt_count),
        "Errors": runs["errors"].map(fmt_count),
        "Throughput (ops/s)": runs["throughput"].map(fmt_rate),
        "Max sustained (ops/s)": runs["maxSustained"].map(fmt_rate),
        "Plateau (s)": [NA if _missing(a) else f"{a:g}–{b:g}" for a, b in zip(runs["plateauFrom"], runs["plateauTo"])],
        "Plateau mean (ops/s)": runs["plateauMean"].map(fmt_rate),
        "95% CI": [fmt_interval(lo, hi) for lo, hi in zip(runs["ci95Low"], runs["ci95High"])],
        "Batches": [NA if _missing(b) else f"{b:g} × {s:g} s" for b, s in zip(runs["batches"], runs["batchSeconds"])],
    })
    return table, ["Threads", "Runtime (s)", "Operations", "Errors", "Throughput (ops/s)", "Max sustained (ops/s)",
                   "Plateau mean (ops/s)"]


def failed_summary(failed) -> tuple[pd.DataFrame, list[str]]:
    """Runs that failed to start (rundir.FailedRun): folder, scenario, status and the harness's reason."""
    table = pd.DataFrame({
        "Run folder": [run.run_id for run in failed],
        "Scenario": [run.scenario for run in failed],
        "Status": [run.status for run in failed],
        "Failure": [run.failure or NA for run in failed],
    })
    return table, []


def crosscheck_summary(check: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    table = pd.DataFrame({
        "Run folder": check["runId"],
        "Scenario": check["scenario"],
        "summary.json mean": check["harnessMean"].map(fmt_rate),
        "timeseries.csv mean": check["recomputedMean"].map(fmt_rate),
        "Difference": check["relativeDifference"].map(lambda d: NA if _missing(d) else f"{100 * d:.2f}%"),
        "Recomputed 95% CI": [fmt_interval(lo, hi) for lo, hi in zip(check["recomputedLow"], check["recomputedHigh"])],
    })
    return table, ["summary.json mean", "timeseries.csv mean", "Difference"]


def _unique(values) -> str:
    unique = [str(v) for v in dict.fromkeys(values) if not _missing(v)]
    return ", ".join(unique) if unique else NA


def _short_time(value) -> str:
    if _missing(value) or not value:
        return NA
    text = str(value).replace("T", " ")
    return text[:16]
