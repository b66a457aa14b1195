"""Chunk migrations during the measured stages (``migrations`` of run.json, MongoDB's sharded clusters):
per run and stage, the balancer's state and the migrations committed; a measured stage (load, run) with
any is flagged, since its figures include the copying and the routing change."""
from __future__ import annotations

import pandas as pd

from .section import Section, table

COLUMNS = ["scenario", "runId", "stage", "balancer", "committed", "perNamespace", "flagged"]
MEASURED = ("load", "run")


def migrations_frame(runs) -> pd.DataFrame:
    rows = []
    for run in runs:
        for stage, entry in (run.meta.get("migrations") or {}).items():
            if not isinstance(entry, dict):
                continue
            committed = entry.get("committed")
            per_namespace = entry.get("perNamespace") or {}
            rows.append({
                "scenario": run.scenario, "runId": run.run_id, "stage": stage,
                "balancer": entry.get("balancer") or entry.get("notRead") or "",
                "committed": committed,
                "perNamespace": ", ".join(f"{ns} ({n})" for ns, n in per_namespace.items()),
                "flagged": stage in MEASURED and isinstance(committed, int) and committed > 0,
            })
    return pd.DataFrame(rows, columns=COLUMNS)


def migrations_table(frame: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """(table, right-aligned columns) for report.md."""
    table = pd.DataFrame({
        "scenario": frame["scenario"], "run": frame["runId"], "stage": frame["stage"],
        "balancer": frame["balancer"],
        "migrations committed": [("**" + f"{n:,}" + "** ⚠" if flagged else f"{n:,}") if isinstance(n, int) else "not read"
                                 for n, flagged in zip(frame["committed"], frame["flagged"])],
        "collections (migrations)": frame["perNamespace"],
    })
    return table, ["migrations committed"]


def report_parts(frame: pd.DataFrame, table) -> list[str]:
    """The "Chunk migrations" section's lines under its heading."""
    flagged = frame[frame["flagged"]]
    if len(flagged):
        runs = ", ".join(f"`{run}` ({stage})" for run, stage in zip(flagged["runId"], flagged["stage"]))
        verdict = (f"**{len(flagged)} measured stage(s) had chunk migrations:** {runs}. Their throughput and latency "
                   "include the balancer's copying and the routing change; compare them with care, or repeat "
                   "with `mongodb.balancer=pause`.")
    else:
        verdict = "No measured stage (load or run) had a chunk migration."
    return [
        "Migrations committed on the cluster during each stage (`config.changelog`, `moveChunk.commit`), and "
        "what the binding did with the balancer (`mongodb.balancer`: `leave`, the default, or `pause`).", "",
        verdict, "",
        table(migrations_table(frame)), "",
    ]


class ChunkMigrations(Section):
    title = "Chunk migrations"

    def applies(self, frames) -> bool:
        return bool(len(frames.migrations))

    def markdown(self, frames, figures) -> list[str]:
        return report_parts(frames.migrations, table)
