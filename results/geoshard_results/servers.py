"""What the servers did, beside what the client saw: ``servers.csv`` (written by the harness's server
sampler, long form ``time_s,node,role,metric,value`` on the seconds of ``timeseries.csv``) turned into
one panel per node with its throughput, CPU and cache over time, and a table per node.

Counters (a metric whose name before the first dot ends in ``_total``, Prometheus's convention) are
turned into rates between consecutive readings; other metrics are gauges and are shown as read. A
node is its host: a database server and the node_exporter on the same host share one panel.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter

from . import captions, data, plotting, tables
from .errors import RunFolderError
from .section import Section

SERVERS_CSV = "servers.csv"
HEADER = ["time_s", "node", "role", "metric", "value"]
FIGURE = captions.FILES["servers"]
COLUMNS = ["throughput", "cpu", "cache"]
COLUMN_TITLES = {"throughput": "Throughput (1/s)", "cpu": "CPU busy (%)", "cache": "Cache"}
# The line each panel's column shows, the first a node has (the table under the figure lists them all).
PREFERRED = {
    "throughput": ["MongoDB ops/s", "PostgreSQL commits/s", "disk I/O/s"],
    "cpu": ["CPU busy %"],
    "cache": ["WiredTiger cache GiB", "buffer hit %", "page cache GiB"],
}
# The client's throughput, drawn in each throughput panel under the servers' lines.
CLIENT_SERIES = "client ops/s"


# Reading ------------------------------------------------------------------------------------------


def read_servers(path: Path) -> pd.DataFrame:
    """One ``servers.csv``; an empty frame when the run has none (sampler off, older runs)."""
    path = Path(path)
    if not path.exists():
        return pd.DataFrame(columns=HEADER)
    try:
        frame = pd.read_csv(path, dtype={"node": str, "role": str, "metric": str})
    except (pd.errors.ParserError, UnicodeDecodeError) as error:
        raise RunFolderError(path, f"not a CSV file: {error}") from error
    except pd.errors.EmptyDataError:
        raise RunFolderError(path, f"empty; expected the header {','.join(HEADER)}") from None
    if list(frame.columns) != HEADER:
        raise RunFolderError(path, f"header is {','.join(map(str, frame.columns))}; expected {','.join(HEADER)}", 1)
    for column in ("time_s", "value"):
        numbers = pd.to_numeric(frame[column], errors="coerce")
        bad = numbers.isna() & frame[column].notna()
        if bad.any():
            row = int(np.flatnonzero(bad.to_numpy())[0])
            raise RunFolderError(path, f"{column} is not a number: {frame[column].iloc[row]!r}", row + 2)
        frame[column] = numbers
    return frame


def servers_frame(runs) -> pd.DataFrame:
    """Every run's ``servers.csv`` with ``runId`` and ``scenario``."""
    frames = []
    for run in runs:
        frame = read_servers(Path(run.path) / SERVERS_CSV)
        if len(frame):
            interval = (run.meta.get("observe") or {}).get("intervalSeconds")
            interval = float(interval) if isinstance(interval, (int, float)) and not isinstance(interval, bool) \
                else np.nan
            frames.append(frame.assign(runId=run.run_id, scenario=run.scenario, intervalS=interval))
    if not frames:
        return pd.DataFrame(columns=["runId", "scenario", *HEADER, "intervalS"])
    return pd.concat(frames, ignore_index=True)


def is_counter(metric: str) -> bool:
    return metric.split(".", 1)[0].endswith("_total")


# A counter's rate spans at least this share of the sampling interval: a reading closer than that to
# the one before (the last reading, taken as the phase stops) is merged with it. Servers publish some
# counters in steps (PostgreSQL's statistics up to a second late), so a rate over a fraction of a
# second is noise: 1,115 commits over 0.37 s, or a flush of the last second's commits over 0.1 s.
MIN_RATE_SPAN = 0.5


def rates(frame: pd.DataFrame) -> pd.DataFrame:
    """Counters as per-second rates between readings (at the later reading's time): the increase over
    the real time between the two readings used. Readings less than MIN_RATE_SPAN sampling intervals
    after the previous one are merged with it (see ``rate_readings``), so no rate divides by a
    fraction of an interval. Gauges unchanged. A counter that went down (a server restarted) gives no
    rate for that step. The sampling interval is the frame's ``intervalS`` (run.json's
    ``observe.intervalSeconds``) when known, else the median time between a node's readings."""
    if not len(frame):
        return frame.copy()
    frame = frame.sort_values(["runId", "node", "metric", "time_s"], kind="stable")
    counter = frame["metric"].map(is_counter)
    used = pd.Series(True, index=frame.index)
    for (_, _), node in frame.groupby(["runId", "node"], sort=False):
        times = np.unique(node["time_s"].to_numpy(dtype=float))
        interval = node["intervalS"].iloc[0] if "intervalS" in node else np.nan
        kept = rate_readings(times, interval)
        used[node.index] = node["time_s"].isin(kept)
    counters = frame[counter & used]
    keys = [counters["runId"], counters["node"], counters["metric"]]
    dt = counters.groupby(keys, sort=False)["time_s"].diff()
    dv = counters.groupby(keys, sort=False)["value"].diff()
    rate = (dv / dt).where((dt > 0) & (dv >= 0)).dropna()
    gauges = frame[~counter]
    out = pd.concat([gauges, counters.loc[rate.index].assign(value=rate)]).sort_index(kind="stable")
    return out.drop(columns=["intervalS"], errors="ignore").reset_index(drop=True)


def rate_readings(times: np.ndarray, interval: float = np.nan) -> list[float]:
    """The reading times a node's counter rates are taken between: every reading, except that one less
    than MIN_RATE_SPAN × ``interval`` after the previous kept reading replaces it (the rate then spans
    from the reading before, over the real time between them); a second reading too close to the first
    is left out. ``interval`` NaN: the median time between readings."""
    times = np.sort(np.asarray(times, dtype=float))
    if len(times) < 2:
        return list(times)
    if not np.isfinite(interval) or interval <= 0:
        interval = float(np.median(np.diff(times)))
    shortest = MIN_RATE_SPAN * interval
    kept = [times[0]]
    for time in times[1:]:
        if time - kept[-1] >= shortest:
            kept.append(time)
        elif len(kept) >= 2:
            kept[-1] = time
    return kept


def panel_name(node: str) -> str:
    """The host of ``host:port`` (a database and its host's node_exporter share a panel); other
    names (a shard's) as they are."""
    host, sep, port = str(node).rpartition(":")
    return host if sep and port.isdigit() and host else str(node)


def _sum(frame: pd.DataFrame, mask, label: str, column: str, scale: float = 1.0) -> pd.DataFrame:
    picked = frame[mask]
    if not len(picked):
        return pd.DataFrame()
    summed = picked.groupby(["runId", "scenario", "node", "time_s"], sort=False)["value"].sum().reset_index()
    return summed.assign(value=summed["value"] * scale, series=label, column=column)


def panel_series(frame: pd.DataFrame) -> pd.DataFrame:
    """The lines of the per-node panels: ``runId, scenario, panel, column, series, time_s, value``.

    throughput: MongoDB operations (all opcounters) per second, PostgreSQL commits and tuples
    returned per second, a host's disk reads and writes per second; cpu: a host's busy share from
    node_exporter (100% less idle and iowait, of all CPUs); cache: WiredTiger cache and dirty bytes
    (GiB), PostgreSQL's buffer hit ratio (%), a host's page cache (GiB).
    """
    if not len(frame):
        return pd.DataFrame(columns=["runId", "scenario", "panel", "column", "series", "time_s", "value"])
    r = rates(frame)
    metric = r["metric"]
    parts = [
        _sum(r, metric.str.startswith("mongodb_opcounters_total."), "MongoDB ops/s", "throughput"),
        _sum(r, metric == "pg_xact_commit_total", "PostgreSQL commits/s", "throughput"),
        _sum(r, metric == "pg_tup_returned_total", "PostgreSQL tuples returned/s (÷1000)", "throughput", 1e-3),
        _sum(r, metric.str.startswith("node_disk_reads_completed_total.")
             | metric.str.startswith("node_disk_writes_completed_total."), "disk I/O/s", "throughput"),
        _sum(r, metric == "mongodb_cache_bytes", "WiredTiger cache GiB", "cache", 1 / 2**30),
        _sum(r, metric == "mongodb_cache_dirty_bytes", "WiredTiger dirty GiB", "cache", 1 / 2**30),
        _sum(r, metric == "node_memory_Cached_bytes", "page cache GiB", "cache", 1 / 2**30),
        _cpu_busy(r),
        _hit_ratio(r),
    ]
    out = pd.concat([p for p in parts if len(p)], ignore_index=True) if any(len(p) for p in parts) else None
    if out is None:
        return panel_series(frame.iloc[0:0])
    out["panel"] = out["node"].map(panel_name)
    return out[["runId", "scenario", "panel", "column", "series", "time_s", "value"]]


def _cpu_busy(r: pd.DataFrame) -> pd.DataFrame:
    cpu = r[r["metric"].str.startswith("node_cpu_seconds_total.")]
    if not len(cpu):
        return pd.DataFrame()
    cpu = cpu.assign(mode=cpu["metric"].str.split(".", n=1).str[1])
    wide = cpu.pivot_table(index=["runId", "scenario", "node", "time_s"], columns="mode", values="value",
                           aggfunc="sum")
    total = wide.sum(axis=1)
    idle = wide.get("idle", 0) + wide.get("iowait", 0)
    busy = (100 * (total - idle) / total).where(total > 0).dropna()
    return busy.rename("value").reset_index().assign(series="CPU busy %", column="cpu")


def _hit_ratio(r: pd.DataFrame) -> pd.DataFrame:
    pg = r[r["metric"].isin(["pg_blks_hit_total", "pg_blks_read_total"])]
    if not len(pg):
        return pd.DataFrame()
    wide = pg.pivot_table(index=["runId", "scenario", "node", "time_s"], columns="metric", values="value",
                          aggfunc="sum")
    if "pg_blks_hit_total" not in wide or "pg_blks_read_total" not in wide:
        return pd.DataFrame()
    total = wide["pg_blks_hit_total"] + wide["pg_blks_read_total"]
    ratio = (100 * wide["pg_blks_hit_total"] / total).where(total > 0).dropna()
    return ratio.rename("value").reset_index().assign(series="buffer hit %", column="cache")


def node_table(frame: pd.DataFrame, runs) -> pd.DataFrame:
    """Per run and node: role, readings in ``servers.csv``, and the sampler's requests and failed
    requests from ``run.json`` (``observe.nodes``): a node that never answered has no readings."""
    observed = {}
    for run in runs:
        for node in (run.meta.get("observe") or {}).get("nodes") or []:
            observed[(run.run_id, node.get("node"))] = node
    rows = []
    for run in runs:
        nodes = dict.fromkeys([n.get("node") for n in (run.meta.get("observe") or {}).get("nodes") or []])
        mine = frame[frame["runId"] == run.run_id]
        nodes.update(dict.fromkeys(mine["node"]))
        for node in nodes:
            readings = mine[mine["node"] == node]
            entry = observed.get((run.run_id, node), {})
            role = entry.get("role") or (readings["role"].iloc[0] if len(readings) else "")
            rows.append({"scenario": run.scenario, "node": node, "role": role,
                         "readings": int(readings["time_s"].nunique()),
                         "requests": entry.get("requests", ""), "failed": entry.get("failures", "")})
    return pd.DataFrame(rows, columns=["scenario", "node", "role", "readings", "requests", "failed"])


def panel_means(series: pd.DataFrame) -> pd.DataFrame:
    """Mean of each line per scenario and panel (the report's table under the figure)."""
    if not len(series):
        return pd.DataFrame(columns=["scenario", "panel", "series", "mean", "max"])
    grouped = series.groupby(["scenario", "panel", "series"], sort=False)["value"]
    return grouped.agg(mean="mean", max="max").reset_index()


def client_throughput(runs) -> pd.DataFrame:
    """The client's successful operations per second (all but CLEANUP), as the throughput figure has them
    (``data.throughput_per_second``: the last, partial interval left out, so the line does not drop at
    the stop), on the same seconds: drawn beside each node's throughput. ``time_s`` is the end of the
    interval, as a server reading at 3.2 s falls in the client's second 4."""
    per_second = data.throughput_per_second(data.timeseries_frame(list(runs))) if runs else pd.DataFrame()
    if not len(per_second):
        return pd.DataFrame(columns=["runId", "scenario", "time_s", "value"])
    return per_second.assign(time_s=per_second["second"].astype(float),
                             value=per_second["opsPerSec"])[["runId", "scenario", "time_s", "value"]]


# Drawing ------------------------------------------------------------------------------------------


def figure_lines(series: pd.DataFrame) -> pd.DataFrame:
    """The lines the figure draws: per panel and column, the first of ``PREFERRED`` the panel has."""
    keep = []
    for (panel, column), group in series.groupby(["panel", "column"], sort=False):
        names = set(group["series"])
        chosen = next((name for name in PREFERRED[column] if name in names), None)
        if chosen is not None:
            keep.append(group[group["series"] == chosen])
    return pd.concat(keep, ignore_index=True) if keep else series.iloc[0:0]


def servers_figure(series: pd.DataFrame, client: pd.DataFrame, palette: plotting.Palette) -> Figure:
    """One row per node (panel), three columns: throughput (the client's in grey on its own axis),
    CPU, cache. Colour is the scenario's; each axis is labelled with the line it shows."""
    lines_all = figure_lines(series)
    panels = list(dict.fromkeys(series["panel"]))
    with plotting._style():
        figure = Figure(figsize=(plotting.FULL_WIDTH_IN, 1.9 * len(panels) + 0.9), layout="constrained")
        axes = figure.subplots(len(panels), len(COLUMNS), squeeze=False, sharex=True)
        divisor, unit = plotting.time_unit(float(series["time_s"].max()) if len(series) else 0)
        for row, panel in enumerate(panels):
            runs_here = set(series.loc[series["panel"] == panel, "runId"])
            for col, column in enumerate(COLUMNS):
                ax = axes[row][col]
                lines = lines_all[(lines_all["panel"] == panel) & (lines_all["column"] == column)]
                if column == "throughput" and len(client):
                    twin = ax.twinx()
                    for run_id, run in client[client["runId"].isin(runs_here)].groupby("runId", sort=False):
                        twin.plot(run["time_s"] / divisor, run["value"], color="0.65", lw=0.9, drawstyle="steps-pre",
                                  zorder=0)
                    twin.set_ylim(bottom=0)
                    twin.yaxis.set_major_formatter(FuncFormatter(plotting.format_rate))
                    twin.tick_params(axis="y", colors="0.45", labelsize=7)
                    twin.set_ylabel(CLIENT_SERIES, color="0.45", fontsize=7)
                    twin.grid(False)
                    ax.set_zorder(twin.get_zorder() + 1)
                    ax.patch.set_visible(False)
                if not len(lines):
                    # No scale to show: an empty 0-1 axis under "CPU busy (%)" would read as 0-1%.
                    ax.text(0.5, 0.5, "not sampled", ha="center", va="center", transform=ax.transAxes, color="0.4")
                    ax.set_yticks([])
                    ax.grid(axis="y", visible=False)
                else:
                    for (run_id, scenario), line in lines.groupby(["runId", "scenario"], sort=False):
                        line = line.sort_values("time_s")
                        ax.plot(line["time_s"] / divisor, line["value"], color=palette.colour(scenario), lw=1.4,
                                marker=".", ms=3)
                    if lines["series"].iloc[0].endswith("%"):
                        ax.set_ylim(0, 115)  # room above 100% for the line's name
                    else:
                        ax.set_ylim(bottom=0)
                    ax.text(0.02, 0.97, lines["series"].iloc[0], transform=ax.transAxes, va="top", fontsize=7,
                            color="0.3")
                    if column == "throughput":
                        ax.yaxis.set_major_formatter(FuncFormatter(plotting.format_rate))
                if row == 0:
                    ax.set_title(COLUMN_TITLES[column])
                if col == 0:
                    ax.set_ylabel(panel)
                if row == len(panels) - 1:
                    ax.set_xlabel(f"time ({unit})")
        handles = [Line2D([], [], color=palette.colour(s), lw=2, label=s) for s in dict.fromkeys(series["scenario"])]
        if len(client):
            handles.append(Line2D([], [], color="0.65", lw=0.9, label=CLIENT_SERIES + " (right axis)"))
        plotting._bottom_legend(figure, handles)
    return figure


# The report's section ----------------------------------------------------------------------------


@dataclass
class ServersData:
    """What the section shows: the runs, their readings, the nodes sampled and the per-host lines."""

    runs: list
    table: pd.DataFrame  # node_table
    series: pd.DataFrame  # panel_series


class Servers(Section):
    """The "Servers" section (only when a run sampled its servers): the per-host figure (when any node
    gave a reading), the mean and maximum of its lines, the nodes sampled and the sampler's own cost."""

    title = "Servers"

    def applies(self, frames) -> bool:
        return bool(len(node_table(frames.servers, frames.inputs)))

    def data(self, frames) -> ServersData:
        return ServersData(frames.inputs, node_table(frames.servers, frames.inputs), panel_series(frames.servers))

    def figures(self, data: ServersData) -> list[str]:
        return ["servers"] if len(data.series) else []

    def draw(self, figure_id, data: ServersData, palette: plotting.Palette) -> Figure:
        return servers_figure(data.series, client_throughput(data.runs), palette)

    def markdown(self, data: ServersData, figures) -> list[str]:
        lines = []
        for figure in figures:
            means = panel_means(data.series)
            lines += [figure.markdown(), "",
                      tables.markdown_table(means.assign(mean=means["mean"].map(_number),
                                                         max=means["max"].map(_number)), ["mean", "max"]), ""]
        lines += ["Nodes sampled (`readings`: rows in `servers.csv`; `requests` and `failed`: the sampler's own "
                  "count in `run.json`, a node that could not be read is tried again every interval):", "",
                  tables.markdown_table(data.table, ["readings", "requests", "failed"]), ""]
        cost = _sampler_cost(data.runs)
        if cost:
            lines += [cost, ""]
        return lines


def _sampler_cost(runs) -> str:
    parts = []
    for run in runs:
        observe = run.meta.get("observe") or {}
        if "cpuMillis" in observe and run.meta.get("runtimeMs"):
            parts.append(f"{run.scenario}: {observe['cpuMillis']} ms of CPU over {observe.get('rounds', 0)} rounds "
                         f"(mean {observe.get('meanRoundMicros', 0) / 1000:.1f} ms a round)")
    return ("The sampler's own cost — " + "; ".join(parts) + ".") if parts else ""


def _number(value: float) -> str:
    return f"{value:,.3g}" if abs(value) < 1000 else f"{value:,.0f}"

