"""Query targeting (``queryTargeting`` of run.json): per operation, how many shards or partitions an
explained request went to and how many documents or rows they examined per one returned."""
from __future__ import annotations

import pandas as pd

from .section import Section, table

COLUMNS = ["scenario", "runId", "operation", "samples", "targetsPerQuery", "targetsMin", "targetsMax",
           "examinedPerReturned", "targets"]


def targeting_frame(runs) -> pd.DataFrame:
    rows = []
    for run in runs:
        operations = (run.meta.get("queryTargeting") or {}).get("operations") or {}
        for operation, entry in operations.items():
            counts = entry.get("targetCounts") or {}
            rows.append({
                "scenario": run.scenario, "runId": run.run_id, "operation": operation,
                "samples": entry.get("samples", 0), "targetsPerQuery": entry.get("targetsPerQuery"),
                "targetsMin": entry.get("targetsMin"), "targetsMax": entry.get("targetsMax"),
                "examinedPerReturned": entry.get("examinedPerReturned"),
                "targets": ", ".join(f"{name} ({n})" for name, n in counts.items()),
            })
    return pd.DataFrame(rows, columns=COLUMNS)


def targeting_table(frame: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """(table, right-aligned columns) for report.md."""
    def number(v, fmt):
        return "n/a" if v is None or pd.isna(v) else format(v, fmt)

    table = pd.DataFrame({
        "scenario": frame["scenario"], "operation": frame["operation"],
        "explained": frame["samples"].map(lambda v: f"{v:,}"),
        "shards per query": [f"{number(m, '.2f')} ({lo}–{hi})" for m, lo, hi in
                             zip(frame["targetsPerQuery"], frame["targetsMin"], frame["targetsMax"])],
        "examined per returned": frame["examinedPerReturned"].map(lambda v: number(v, ".1f")),
        "shards or partitions (times)": frame["targets"],
    })
    return table, ["explained", "shards per query", "examined per returned"]


def report_parts(frame: pd.DataFrame, table) -> list[str]:
    """The "Query targeting" section's lines under its heading."""
    return [
        "A few real requests per operation and ramp step, explained by the database (`observe.explain.samples`; "
        "MongoDB: `explain` with `executionStats` through the mongos; PostgreSQL: `EXPLAIN (ANALYZE, BUFFERS)`): "
        "the shards (or partitions) that took part per query, mean (min–max), and the documents (rows) "
        "examined per one returned.", "",
        table(targeting_table(frame)), "",
    ]


class QueryTargeting(Section):
    title = "Query targeting"

    def applies(self, frames) -> bool:
        return bool(len(frames.targeting))

    def markdown(self, frames, figures) -> list[str]:
        return report_parts(frames.targeting, table)
