"""The location sweep: the section "Queries under inserts" and its figure, from the sweep steps of
``summary.json`` (``"sweep": {"group", "steps"}``). Pure DataFrame code like ``data``: nothing here
reads files."""

from __future__ import annotations

import logging
import math

import pandas as pd

from . import hlog, plotting, tables
from .data import BREACH_VERDICTS, _join_counts, _number, _scenario_key, join_unique
from .rundir import HISTORY_PROPERTIES, Run, whole_number
from .section import Section, table

log = logging.getLogger(__name__)

# Sweep steps ------------------------------------------------------------------------------------
# A sweep steps the offered rate of one thread group (the location workload's writers) while the
# main threads (its readers) run as they do; summary.json has one step per rate with the
# throughput and latency of every operation in the step's window.

INSERT_OPERATION = "HISTORY_INSERT"
UPSERT_OPERATION = "LKL_UPSERT"
STALE_OPERATION = "LKL_STALE"  # an upsert that found a newer location already there: not an error
QUERY_OPERATIONS = ("LKL_READ", "HISTORY_RANGE", "LKL_NEAR")
# Query operations whose rate and p99 are always tabulated; the others only when they ran.
MAIN_QUERY_OPERATIONS = ("LKL_READ", "HISTORY_RANGE")


def rate_column(operation: str) -> str:
    return f"{operation}PerSec"


def p99_column(operation: str) -> str:
    return f"{operation}P99Us"


SWEEP_STEP_COLUMNS = ["runId", "scenario", "group", "step", "threads", "offeredOpsPerSec", "startSecond",
                      "endSecond", "insertsPerSec", "upsertsPerSec", "stalePerSec", "queriesPerSec",
                      *(rate_column(op) for op in QUERY_OPERATIONS), *(p99_column(op) for op in QUERY_OPERATIONS),
                      "inserted", "historyAtEnd", "errors", "verdict"]


def history_at_start(meta: dict) -> float:
    """History rows at the start of a run: ll.users × ll.history.peruser from run.json's
    properties (the rows the load wrote); NaN when either is not recorded."""
    properties = meta.get("properties") or {}
    values = [whole_number(properties[key]) if properties.get(key) is not None else None
              for key in HISTORY_PROPERTIES]
    if any(value is None for value in values):
        return math.nan
    users, per_user = values
    return float(users * per_user)


def sweep_steps_frame(runs: list[Run]) -> pd.DataFrame:
    """Every sweep step of every run, one row each (runs without a sweep contribute nothing).

    Rates are the harness's per-operation throughputs of the step (an operation that did not run
    in it is 0/s); queries/s adds the query operations. ``historyAtEnd`` is the History size at the
    start of the run plus the inserts (count − errors) of this and the earlier steps.
    """
    rows = []
    for run in runs:
        sweep = run.summary.get("sweep")
        if not sweep:
            continue
        history = history_at_start(run.meta)
        for step in sorted(sweep.get("steps") or [], key=lambda s: s["step"]):
            operations = step["perOperation"]

            def rate(operation: str, operations=operations) -> float:
                return float(operations[operation]["throughput"]) if operation in operations else 0.0

            insert = operations.get(INSERT_OPERATION) or {"count": 0, "errors": 0}
            inserted = float(insert["count"] - min(insert["errors"], insert["count"]))
            history += inserted
            row = {
                "runId": run.run_id, "scenario": run.scenario, "group": str(sweep.get("group", "sweep")),
                **{key: _number(step.get(key)) for key in ("step", "threads", "offeredOpsPerSec", "startSecond",
                                                           "endSecond", "errors")},
                "insertsPerSec": rate(INSERT_OPERATION), "upsertsPerSec": rate(UPSERT_OPERATION),
                "stalePerSec": rate(STALE_OPERATION),
                "queriesPerSec": sum(rate(op) for op in QUERY_OPERATIONS),
                "inserted": inserted, "historyAtEnd": history, "verdict": str(step.get("verdict") or "n/a"),
            }
            for operation in QUERY_OPERATIONS:
                row[rate_column(operation)] = rate(operation)
                row[p99_column(operation)] = (_number(operations[operation]["p99Us"]) if operation in operations
                                              else math.nan)
            rows.append(row)
    return pd.DataFrame(rows, columns=SWEEP_STEP_COLUMNS)


def sweep_query_operations(sweep_steps: pd.DataFrame) -> list[str]:
    """The query operations the sweep table shows: LKL_READ, HISTORY_RANGE and any other that ran."""
    return [op for op in QUERY_OPERATIONS
            if op in MAIN_QUERY_OPERATIONS or (len(sweep_steps) and (sweep_steps[rate_column(op)] > 0).any())]


def sweep_table(sweep_steps: pd.DataFrame, intervals: pd.DataFrame) -> pd.DataFrame:
    """Per scenario and step number: the sweep table's numbers.

    One run: its step as summary.json has it. Repeats (steps with the same number): rates and History
    size are means over the runs, the offered rate's range is kept (``offeredLow``/``offeredHigh``),
    and each query operation's p99 comes from the runs' interval histograms of the step's seconds
    pooled (never averaged).
    """
    rate_columns = ["insertsPerSec", "upsertsPerSec", "stalePerSec", "queriesPerSec",
                    *(rate_column(op) for op in QUERY_OPERATIONS)]
    p99_columns = [p99_column(op) for op in QUERY_OPERATIONS]
    columns = ["scenario", "step", "runs", "group", "threads", "offeredOpsPerSec", "offeredLow", "offeredHigh",
               *rate_columns, *p99_columns, "historyAtEnd", "verdict", "breached", "pooled"]
    rows = []
    for (scenario, step), group in sweep_steps.groupby(["scenario", "step"], sort=False):
        row = {"scenario": scenario, "step": step, "runs": len(group), "group": join_unique(group["group"]),
               "threads": join_unique(list(group["threads"])),
               "offeredOpsPerSec": float(group["offeredOpsPerSec"].mean()),
               "offeredLow": float(group["offeredOpsPerSec"].min()),
               "offeredHigh": float(group["offeredOpsPerSec"].max()),
               **{column: float(group[column].mean()) for column in rate_columns},
               "historyAtEnd": float(group["historyAtEnd"].mean(skipna=False)),
               "verdict": _join_counts(group["verdict"]),
               "breached": bool(group["verdict"].isin(BREACH_VERDICTS).any()), "pooled": len(group) > 1}
        for operation in QUERY_OPERATIONS:
            column = p99_column(operation)
            row[column] = (group[column].iloc[0] if len(group) == 1
                           else _pooled_step_percentile(intervals, group, operation, 99.0))
        rows.append(row)
    table = pd.DataFrame(rows, columns=columns)
    return table.sort_values(["scenario", "step"], kind="stable", key=_scenario_key(sweep_steps)).reset_index(drop=True)


def _pooled_step_percentile(intervals: pd.DataFrame, steps: pd.DataFrame, operation: str, percentile: float) -> float:
    """``percentile`` of ``operation`` over the interval histograms inside the steps' windows."""
    if not len(intervals):
        return math.nan
    inside = pd.Series(False, index=intervals.index)
    for _, step in steps.iterrows():
        inside |= ((intervals["runId"] == step["runId"]) & (intervals["second"] >= step["startSecond"])
                   & (intervals["second"] <= step["endSecond"]))
    selected = intervals[inside & (intervals["operation"] == operation)]
    if not len(selected):
        return math.nan
    histogram = hlog.merge_payloads(selected["payload"], selected["source"])
    return hlog.percentile_values(histogram, (percentile,))[percentile]


def warn(frames) -> None:
    """Warnings about the sweeps of ``frames``: repeats offered different rates, or a sweep measured none
    of the location workload's operations."""
    for _, row in frames.sweep[frames.sweep["offeredLow"] != frames.sweep["offeredHigh"]].iterrows():
        log.warning("%s: the repeats offered different insert rates in step %g (%g to %g events/s); their mean "
                    "is shown", row["scenario"], row["step"], row["offeredLow"], row["offeredHigh"])
    for run_id, group in frames.sweep_steps.groupby("runId", sort=False):
        if not (group[["insertsPerSec", "queriesPerSec"]] > 0).any().any():
            log.warning("%s: the sweep measured none of the location workload's operations (%s, %s)", run_id,
                        INSERT_OPERATION, ", ".join(QUERY_OPERATIONS))


# The section -----------------------------------------------------------------------------------


class QueriesUnderInserts(Section):
    """One table per scenario with a sweep, then the figure."""

    title = "Queries under inserts"

    def applies(self, frames) -> bool:
        return bool(len(frames.sweep))

    def figures(self, frames) -> list[str]:
        return ["queries_vs_inserts"]

    def draw(self, figure_id, frames, palette):
        return plotting.queries_vs_inserts_figure(frames.sweep, frames.sweep_steps, frames.sweep_queries, palette)

    def markdown(self, frames, figures) -> list[str]:
        parts = ["Sweeps: the offered rate of one thread group (the writers) steps through a list while the main "
                 "threads (the readers) run as they do. Per step: offered insert rate (events/s), achieved rates of "
                 f"`{INSERT_OPERATION}`, `{UPSERT_OPERATION}` and `{STALE_OPERATION}` (an upsert that "
                 "found a newer location; not an error), queries/s (the query operations added) and per query "
                 "operation, p99 latency, the History size at the end of the step (`ll.users` × "
                 "`ll.history.peruser` from `run.json`, the rows of a fresh load, plus the successful inserts of the "
                 "steps so far; n/a when those properties are not recorded) and the step's verdict under the SLA "
                 "rule (for information: a sweep does not stop on it).", ""]
        runs = frames.runs
        for scenario, sweep in frames.sweep.groupby("scenario", sort=False):
            group = runs[(runs["scenario"] == scenario) & runs["sweepGroup"].notna()]
            steps = frames.sweep_steps[frames.sweep_steps["scenario"] == scenario]
            threads = join_unique(list(steps["threads"]))
            how = ("one run: `summary.json`'s numbers" if len(group) == 1 else
                   f"{len(group)} runs: rates and History size averaged, p99 from the runs' `.hlog` histograms of "
                   "each step pooled")
            parts += [f"**{scenario}** — sweep of `{join_unique(group['sweepGroup'])}` ({threads} threads; "
                      f"{how})", "", table(tables.sweep_summary(sweep, frames.sweep_queries)), ""]
        parts += [figure.markdown() for figure in figures]
        return parts
