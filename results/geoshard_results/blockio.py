"""Block-I/O traces (``io/<node>.csv`` of a run folder, written by ``trace.io``): read, summarised and
drawn as the I/O study did (sector offset against time per device, reads and writes apart; request
sizes and latencies). Pure functions of DataFrames, drawing separate from saving.
"""
from __future__ import annotations

from datetime import datetime
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from . import captions
from .section import Section, table

IO_COLUMNS = ["epoch_ms", "stage", "device", "sector", "bytes", "op", "rwbs", "process", "pid", "latency_us"]
SECTOR_BYTES = 512
# One colour per direction in every I/O figure (Okabe & Ito): reads blue, writes vermilion.
OP_COLOURS = {"R": "#0072B2", "W": "#D55E00"}
OP_NAMES = {"R": "reads", "W": "writes"}
PATTERN_FILE = captions.FILES["io_pattern"]
DISTRIBUTION_FILE = captions.FILES["io_distribution"]


def run_start_ms(meta: dict) -> float | None:
    """The run's time base (``startTime`` of run.json, the second 0 of timeseries.csv) in epoch ms."""
    start = meta.get("startTime")
    if not start:
        return None
    return datetime.fromisoformat(str(start).replace("Z", "+00:00")).timestamp() * 1000


def read_trace(path: Path) -> pd.DataFrame:
    frame = pd.read_csv(path, dtype={"device": str, "stage": str, "op": str, "rwbs": str, "process": str})
    missing = [c for c in IO_COLUMNS if c not in frame.columns]
    if missing:
        raise ValueError(f"{path}: the I/O trace lacks the column(s) {', '.join(missing)}")
    return frame


def io_frame(runs) -> pd.DataFrame:
    """Every traced request of every run: the trace's columns plus runId, scenario, node and time_s
    (seconds on the run's time base)."""
    frames = []
    for run in runs:
        folder = Path(run.path) / "io"
        if not folder.is_dir():
            continue
        start = run_start_ms(run.meta)
        for path in sorted(folder.glob("*.csv")):
            frame = read_trace(path)
            frame.insert(0, "node", path.stem)
            frame.insert(0, "scenario", run.scenario)
            frame.insert(0, "runId", run.run_id)
            base = start if start is not None else (frame["epoch_ms"].min() if len(frame) else 0)
            frame["time_s"] = (frame["epoch_ms"] - base) / 1000
            frames.append(frame)
    if not frames:
        return pd.DataFrame(columns=["runId", "scenario", "node", *IO_COLUMNS, "time_s"])
    return pd.concat(frames, ignore_index=True)


def sequential_flags(frame: pd.DataFrame) -> pd.Series:
    """Per data request (R/W with bytes): True when it starts where the previous request of the same
    run, node, device and direction (in start order) ended, False when not, NaN for the first of each
    and for requests without data. The harness's summary in run.json uses the same rule."""
    data = frame[frame["op"].isin(["R", "W"]) & (frame["bytes"] > 0)].sort_values("epoch_ms", kind="stable")
    keys = ["runId", "node", "device", "op"]
    previous_end = (data["sector"] + data["bytes"] // SECTOR_BYTES).groupby([data[k] for k in keys]).shift(1)
    flags = (data["sector"] == previous_end).astype(object)
    flags[previous_end.isna()] = np.nan
    return flags.reindex(frame.index)


def io_summary(frame: pd.DataFrame) -> pd.DataFrame:
    """Per run, node and stage: requests, MiB read and written, the sequential share, latency percentiles (ms)."""
    columns = ["scenario", "runId", "node", "stage", "requests", "readMiB", "writeMiB", "sequentialShare",
               "p50Ms", "p95Ms", "p99Ms", "maxMs"]
    if not len(frame):
        return pd.DataFrame(columns=columns)
    frame = frame.assign(sequential=sequential_flags(frame))
    rows = []
    for (run_id, node, stage), group in frame.groupby(["runId", "node", "stage"], sort=False):
        judged = group["sequential"].dropna()
        latency = group["latency_us"] / 1000
        rows.append({
            "scenario": group["scenario"].iloc[0], "runId": run_id, "node": node, "stage": stage,
            "requests": len(group),
            "readMiB": group.loc[group["op"] == "R", "bytes"].sum() / 2**20,
            "writeMiB": group.loc[group["op"] == "W", "bytes"].sum() / 2**20,
            "sequentialShare": float(judged.astype(bool).mean()) if len(judged) else np.nan,
            "p50Ms": latency.quantile(0.5), "p95Ms": latency.quantile(0.95), "p99Ms": latency.quantile(0.99),
            "maxMs": latency.max(),
        })
    return pd.DataFrame(rows, columns=columns)


def summary_table(summary: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """The summary for report.md: (table, right-aligned columns)."""
    table = pd.DataFrame({
        "scenario": summary["scenario"], "node": summary["node"], "stage": summary["stage"],
        "requests": summary["requests"].map(lambda v: f"{v:,}"),
        "read MiB": summary["readMiB"].map(lambda v: f"{v:,.1f}"),
        "written MiB": summary["writeMiB"].map(lambda v: f"{v:,.1f}"),
        "sequential": summary["sequentialShare"].map(lambda v: "n/a" if pd.isna(v) else f"{100 * v:.0f}%"),
        "p50 ms": summary["p50Ms"].map(lambda v: f"{v:.2f}"),
        "p95 ms": summary["p95Ms"].map(lambda v: f"{v:.2f}"),
        "p99 ms": summary["p99Ms"].map(lambda v: f"{v:.2f}"),
        "max ms": summary["maxMs"].map(lambda v: f"{v:.2f}"),
    })
    return table, ["requests", "read MiB", "written MiB", "sequential", "p50 ms", "p95 ms", "p99 ms", "max ms"]


def _panels(frame: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    data = frame[frame["op"].isin(["R", "W"]) & (frame["bytes"] > 0)]
    panels = []
    for (scenario, node, device), group in data.groupby(["scenario", "node", "device"], sort=False):
        panels.append((f"{scenario} · {node} · device {device}", group))
    return panels


def pattern_figure(frame: pd.DataFrame) -> Figure:
    """The I/O study's figure: sector offset (GiB into the device) against time, one panel per device of
    each node and scenario, reads and writes in their own colours."""
    panels = _panels(frame)
    figure = Figure(figsize=(7.2, 2.4 * max(1, len(panels))), layout="constrained")
    axes = figure.subplots(max(1, len(panels)), 1, squeeze=False)[:, 0]
    for ax, (title, group) in zip(axes, panels):
        for op in ("R", "W"):
            part = group[group["op"] == op]
            if len(part):
                ax.scatter(part["time_s"], part["sector"] * SECTOR_BYTES / 2**30, s=3, alpha=0.6, linewidths=0,
                           color=OP_COLOURS[op], label=f"{OP_NAMES[op]} ({len(part):,})")
        ax.set_title(title)
        ax.set_ylabel("offset (GiB)")
        ax.legend(loc="upper right", markerscale=3)
    axes[-1].set_xlabel("time (s since the start of the phase's measurements)")
    if not panels:
        axes[0].text(0.5, 0.5, "no block request was traced", ha="center", va="center", transform=axes[0].transAxes)
    return figure


def distribution_figure(frame: pd.DataFrame) -> Figure:
    """Request sizes (KiB, powers of two) and latencies (ms, log scale), reads and writes apart."""
    data = frame[frame["op"].isin(["R", "W"]) & (frame["bytes"] > 0)]
    figure = Figure(figsize=(7.2, 2.8), layout="constrained")
    size_ax, latency_ax = figure.subplots(1, 2)
    if len(data):
        kib = data["bytes"] / 1024
        size_bins = 2.0 ** np.arange(np.floor(np.log2(kib.min())), np.ceil(np.log2(kib.max())) + 2)
        latency_ms = data["latency_us"].clip(lower=1) / 1000
        latency_bins = np.logspace(np.log10(latency_ms.min()), np.log10(latency_ms.max()) + 0.01, 30)
        for op in ("R", "W"):
            part = data["op"] == op
            if part.any():
                size_ax.hist(kib[part], bins=size_bins, color=OP_COLOURS[op], alpha=0.6, label=OP_NAMES[op])
                latency_ax.hist(latency_ms[part], bins=latency_bins, color=OP_COLOURS[op], alpha=0.6,
                                label=OP_NAMES[op])
        size_ax.set_xscale("log", base=2)
        latency_ax.set_xscale("log")
        size_ax.legend()
    size_ax.set_title("I/O size")
    size_ax.set_xlabel("request size (KiB)")
    size_ax.set_ylabel("requests")
    latency_ax.set_title("I/O latency")
    latency_ax.set_xlabel("issue to completion (ms)")
    return figure


def report_parts(summary: pd.DataFrame, figure, table) -> list[str]:
    """The "Block I/O" section's lines under its heading; ``figure(id, caption)`` places a figure (captions
    from ``captions``), ``table`` renders one."""
    return [
        "Block requests of the database's processes traced with eBPF (`trace.io`; `io/<node>.csv`). A request "
        "is sequential when it starts where the previous one of the same device and direction ended. The "
        "trace sees what the processes asked the disk for: not what their own buffers or the page cache "
        "served, nor what the kernel's flusher threads write later on their behalf (dirty pages written back "
        "after the phase).", "",
        table(summary_table(summary)), "",
        *(figure(figure_id, captions.caption(figure_id)) for figure_id in FIGURES),
    ]


class BlockIO(Section):
    """The "Block I/O" section (only when a run traced block I/O): the summary and the two figures."""

    title = "Block I/O"

    def applies(self, frames) -> bool:
        return bool(len(frames.io))

    def figures(self, frames) -> list[str]:
        return list(FIGURES)

    def draw(self, figure_id, frames, palette) -> Figure:
        return FIGURES[figure_id](frames.io)

    def markdown(self, frames, figures) -> list[str]:
        numbered = {figure.id: figure for figure in figures}
        return report_parts(frames.io_summary, lambda figure_id, _caption: numbered[figure_id].markdown(), table)


FIGURES = {"io_pattern": pattern_figure, "io_distribution": distribution_figure}  # id -> drawing, in report order
