"""Assembles the report: DataFrames from the runs, the figures (five in every report; a sweep, block I/O
and the servers add theirs) and report.md."""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import pandas as pd

from . import blockio, data, migrations, plotting, servers, study, tables, targeting
from .identity import Split
from .rundir import FailedRun, Run

log = logging.getLogger(__name__)

FIGURES = {
    "max_throughput": "max-throughput.png",
    "throughput_vs_threads": "throughput-vs-threads.png",
    "throughput_over_time": "throughput-over-time.png",
    "latency_over_time": "latency-over-time.png",
    "latency_distribution": "latency-distribution.png",
}
# Drawn only when a run has a sweep.
SWEEP_FIGURES = {
    "queries_vs_inserts": "queries-vs-inserts.png",
}
# Drawn only when a run traced block I/O (trace.io).
IO_FIGURES = {"io_pattern": blockio.PATTERN_FILE, "io_distribution": blockio.DISTRIBUTION_FILE}
# Drawn only when a run has servers.csv (the server sampler); numbered after every other figure.
SERVER_FIGURES = {"servers": servers.FIGURE}
REPORT_FILE = "report.md"


@dataclass
class Frames:
    """Everything the figures and tables are drawn from."""

    runs: pd.DataFrame
    scenarios: pd.DataFrame
    bars: pd.DataFrame
    per_second: pd.DataFrame  # 1 s resolution (tables, cross-check)
    window: int  # seconds per point in the time figures
    plotted: pd.DataFrame  # per_second in windows of ``window`` seconds
    scenario_means: pd.DataFrame
    threads: pd.DataFrame
    steps: pd.DataFrame
    load_points: pd.DataFrame
    boundaries: pd.DataFrame
    latency: pd.DataFrame
    operations: pd.DataFrame
    curves: pd.DataFrame
    crosscheck: pd.DataFrame
    sweep_steps: pd.DataFrame  # every sweep step of every run
    sweep: pd.DataFrame  # per scenario and step (repeats combined)
    sweep_queries: list  # query operations shown for sweeps
    io: pd.DataFrame = None  # every traced block request (trace.io)
    io_summary: pd.DataFrame = None
    targeting: pd.DataFrame = None  # queryTargeting of run.json
    migrations: pd.DataFrame = None  # migrations of run.json (sharded MongoDB)


def compute_frames(runs: list[Run]) -> Frames:
    runs_df = data.runs_frame(runs)
    per_second = data.throughput_per_second(data.timeseries_frame(runs))
    window = data.window_seconds(per_second["second"].max() if len(per_second) else 0)
    plotted = data.resample_throughput(per_second, window)
    steps = data.steps_frame(runs)
    log.info("merging latency histograms of %d runs", len(runs))
    intervals = data.intervals_frame(runs)
    histograms = data.pooled_operation_histograms(intervals)
    sweep_steps = data.sweep_steps_frame(runs)
    return Frames(
        runs=runs_df,
        scenarios=data.scenario_table(runs_df),
        bars=data.max_throughput_bars(runs_df),
        per_second=per_second,
        window=window,
        plotted=plotted,
        scenario_means=data.scenario_mean_throughput(plotted),
        threads=data.threads_over_time(plotted),
        steps=steps,
        load_points=data.throughput_vs_threads(runs_df, steps),
        boundaries=data.step_boundaries(steps),
        latency=data.latency_over_time(intervals, window=window),
        operations=data.operation_table(data.operations_frame(runs), histograms),
        curves=data.distribution_curves(histograms),
        crosscheck=data.plateau_crosscheck(runs_df, per_second),
        sweep_steps=sweep_steps,
        sweep=data.sweep_table(sweep_steps, intervals),
        sweep_queries=data.sweep_query_operations(sweep_steps),
        io=(io := blockio.io_frame(runs)),
        io_summary=blockio.io_summary(io),
        targeting=targeting.targeting_frame(runs),
        migrations=migrations.migrations_frame(runs),
    )


def draw_figures(frames: Frames, palette: plotting.Palette) -> dict:
    """name -> matplotlib Figure (not yet saved)."""
    figures = {
        "max_throughput": plotting.max_throughput_figure(frames.bars, palette),
        "throughput_vs_threads": plotting.throughput_vs_threads_figure(frames.load_points, palette),
        "throughput_over_time": plotting.throughput_over_time_figure(frames.plotted, frames.scenario_means,
                                                                     frames.boundaries, palette, frames.window),
        "latency_over_time": plotting.latency_over_time_figure(frames.latency, frames.threads, frames.runs, palette,
                                                               frames.window),
        "latency_distribution": plotting.latency_distribution_figure(frames.curves, palette),
    }
    if len(frames.sweep):
        figures["queries_vs_inserts"] = plotting.queries_vs_inserts_figure(frames.sweep, frames.sweep_steps,
                                                                           frames.sweep_queries, palette)
    if frames.io is not None and len(frames.io):
        figures["io_pattern"] = blockio.pattern_figure(frames.io)
        figures["io_distribution"] = blockio.distribution_figure(frames.io)
    return figures


def build_report(runs: list[Run], out_dir: Path, study_options: study.StudyOptions | None = None,
                 failed: list[FailedRun] = (), splits: list[Split] = ()) -> Path:
    """Writes the figures and report.md into ``out_dir``; returns the path of report.md. ``failed``:
    runs that failed to start (listed); ``splits``: labels whose runs were shown apart (noted)."""
    frames = compute_frames(runs)
    _warn_about_sweeps(frames)
    for _, row in frames.crosscheck[~frames.crosscheck["agrees"]].iterrows():
        log.warning("%s: plateau mean in summary.json (%.1f ops/s) differs by %.1f%% from timeseries.csv (%.1f)",
                    row["runId"], row["harnessMean"], 100 * row["relativeDifference"], row["recomputedMean"])
    out_dir.mkdir(parents=True, exist_ok=True)
    palette = plotting.Palette(frames.runs["scenario"])
    for name, figure in draw_figures(frames, palette).items():
        path = plotting.save_figure(figure, out_dir / figure_file(name))
        log.info("wrote %s", path)
    report = out_dir / REPORT_FILE
    figure = _Figures()  # one numbering for every figure, the servers' (after the runs) included
    markdown = render_markdown(frames, sections=study.section(runs, study_options),
                               failed=failed, splits=splits, figure=figure)
    servers_section = servers.section(runs, out_dir, palette, figure)  # issue 16: the servers beside the client
    report.write_text(markdown + "".join(line + "\n" for line in servers_section), encoding="utf-8")
    return report


def figure_file(name: str) -> str:
    return FIGURES.get(name) or SWEEP_FIGURES.get(name) or SERVER_FIGURES.get(name) or IO_FIGURES[name]


def _warn_about_sweeps(frames: Frames) -> None:
    for _, row in frames.sweep[frames.sweep["offeredLow"] != frames.sweep["offeredHigh"]].iterrows():
        log.warning("%s: the repeats offered different insert rates in step %g (%g to %g events/s); their mean "
                    "is shown", row["scenario"], row["step"], row["offeredLow"], row["offeredHigh"])
    steps = frames.sweep_steps
    for run_id, group in steps.groupby("runId", sort=False):
        if not (group[["insertsPerSec", "queriesPerSec"]] > 0).any().any():
            log.warning("%s: the sweep measured none of the location workload's operations (%s, %s)", run_id,
                        data.INSERT_OPERATION, ", ".join(data.QUERY_OPERATIONS))


# report.md --------------------------------------------------------------------------------------


def _table(pair) -> str:
    table, right = pair
    return tables.markdown_table(table, right)


class _Figures:
    """Numbers figures in the order they appear in the text."""

    def __init__(self):
        self.count = 0

    def __call__(self, name: str, caption: str) -> str:
        self.count += 1
        return f"![Figure {self.count}]({figure_file(name)})\n\n*Figure {self.count}. {caption}*\n"


def render_markdown(frames: Frames, generated: datetime | None = None, sections: list[str] | None = None,
                    failed: list[FailedRun] = (), splits: list[Split] = (), figure: "_Figures | None" = None) -> str:
    """report.md; ``sections`` (markdown lines) go after the analysis, before the list of runs;
    ``failed`` runs are listed under the runs, ``splits`` noted under the introduction."""
    generated = generated or datetime.now(timezone.utc)
    runs, figure = frames.runs, figure or _Figures()
    resolution = "1 s interval" if frames.window == 1 else f"{frames.window} s window (the runs are long)"
    scenario_names = list(dict.fromkeys(runs["scenario"]))
    repeated = (frames.scenarios["runs"] > 1).any()
    parts = [
        "# geoshard benchmark report",
        "",
        f"Generated {generated:%Y-%m-%d %H:%M} UTC by `bin/ycsb report` from {len(runs)} run folder(s) in "
        f"{len(scenario_names)} scenario(s): {', '.join(f'**{name}**' for name in scenario_names)}."
        + (f" {len(failed)} more run folder(s) failed to start and are listed under Runs. " if failed else " ")
        + "Throughput counts every operation except `CLEANUP`; latencies are in milliseconds.",
        "",
        *(line for split in splits for line in (f"**Shown apart:** {split.sentence()}.", "")),
        "## Scenarios",
        "",
        _table(tables.scenario_overview(runs)),
        "",
        "## Maximum sustained throughput",
        "",
        _table(tables.scenario_summary(frames.scenarios)),
        "",
        "Max sustained: the highest ramp step throughput that met the SLA rule (`maxSustainedThroughput`); "
        "\\* marks a scenario without a ramp, shown with its plateau mean or, for older runs without a "
        "plateau, its overall throughput. The plateau is the steady part of the run chosen by the harness "
        "(warm-up and cool-down cut by rule); its 95% CI comes from batch means for one run and from a "
        "t interval over the runs' plateau means for repeated runs."
        + (" Rows with several runs average them (min and max are over all runs)." if repeated else "")
        + (" A sweep has no maximum (`n/a (sweep)`): its steps are under Queries under inserts and in the sweep "
           "figure, not in the bars or the throughput-versus-threads figure." if len(frames.sweep) else ""),
        "",
        figure("max_throughput",
               "Maximum sustained throughput per scenario. Error bars are 95% confidence intervals: over repeated "
               "runs (t distribution, dots are single runs), or, for a single run, the batch-means interval of its "
               "plateau mean (diamond). Hatched bars have no ramp."),
        figure("throughput_vs_threads",
               "Throughput of each ramp step against its client threads (open-loop ramps: against the offered "
               "load). Crosses are steps that broke the SLA rule (latency percentile, timeout or errors), the star "
               "is the step of the maximum sustained throughput; light lines are single runs of repeated "
               "scenarios."),
        figure("throughput_over_time",
               f"Throughput per {resolution}. Dotted vertical lines mark the start of ramp steps (with the client "
               "threads on top when every scenario ramps alike); light lines are single runs of a repeated "
               "scenario under their mean. Intervals shorter than 0.5 s (the last, partial one) are left out."),
        figure("latency_over_time",
               f"Latency percentiles of all operations (except `CLEANUP`) per {resolution}, from the interval "
               "histograms merged across operations (and across repeated runs), darker lines for higher "
               "percentiles; the grey step line is the number of client threads (right axis), the red dashed line "
               "the SLA limit."),
        "## Latency per operation",
        "",
        _table(tables.operation_summary(frames.operations)),
        "",
        "For a single run the numbers are the harness's (`summary.json`); for repeated runs counts and errors "
        "are added and the percentiles come from the runs' `.hlog` histograms pooled (never averaged).",
        "",
        figure("latency_distribution",
               "Latency distribution per operation (HdrHistogram percentile plot): the x axis is 1/(1-p) on a "
               "log scale, so each decade is one more nine; all intervals of all runs of a scenario pooled."),
    ]
    if len(frames.steps):
        parts += ["## Ramp steps", ""]
        for run_id, steps in frames.steps.groupby("runId", sort=False):
            row = runs[runs["runId"] == run_id].iloc[0]
            sla = ""
            if not math.isnan(row["slaLatencyMs"]):
                sla = f"; SLA p{row['slaPercentile']:g} ≤ {row['slaLatencyMs']:g} ms"
            parts += [f"**{row['scenario']}** — `{run_id}` ({row['rampMode'] or 'threads'} ramp{sla}; "
                      f"stopped: {row['stopReason']})", "", _table(tables.steps_summary(steps)), ""]
    if len(frames.sweep):
        parts += _sweep_section(frames, figure)
    if frames.targeting is not None and len(frames.targeting):
        parts += targeting.report_parts(frames.targeting, _table)
    if frames.migrations is not None and len(frames.migrations):
        parts += migrations.report_parts(frames.migrations, _table)
    if frames.io is not None and len(frames.io):
        parts += blockio.report_parts(frames.io_summary, figure, _table)
    parts += sections or []
    parts += ["## Runs", "", _table(tables.runs_summary(runs)), ""]
    if failed:
        parts += ["Runs that failed to start (`status` and `failure` from their `run.json`; nothing measured):", "",
                  _table(tables.failed_summary(failed)), ""]
    parts += ["## Cross-check", ""]
    check = frames.crosscheck
    if not len(check):
        parts.append("No run has plateau statistics in `summary.json`, so there was nothing to cross-check.")
    elif check["agrees"].all():
        parts.append(f"The plateau means of all {len(check)} run(s) with plateau statistics, recomputed from "
                     f"`timeseries.csv`, agree with `summary.json` within {100 * data.CROSSCHECK_TOLERANCE:g}%.")
    else:
        parts += [f"Plateau means recomputed from `timeseries.csv` that differ from `summary.json` by more than "
                  f"{100 * data.CROSSCHECK_TOLERANCE:g}% (check these runs):", "",
                  _table(tables.crosscheck_summary(check[~check["agrees"]]))]
    parts += ["", "## Inputs", ""]
    parts += [f"- **{row['scenario']}**: `{row['path']}`" for _, row in runs.iterrows()]
    parts += [f"- **{run.scenario}** (failed to start): `{run.path}`" for run in failed]
    return "\n".join(parts) + "\n"


def _sweep_section(frames: Frames, figure: _Figures) -> list[str]:
    """"Queries under inserts": one table per scenario with a sweep, then the figure."""
    parts = ["## Queries under inserts", "",
             "Sweeps: the offered rate of one thread group (the writers) steps through a list while the main "
             "threads (the readers) run as they do. Per step: offered insert rate (events/s), achieved rates of "
             f"`{data.INSERT_OPERATION}`, `{data.UPSERT_OPERATION}` and `{data.STALE_OPERATION}` (an upsert that "
             "found a newer location; not an error), queries/s (the query operations added) and per query "
             "operation, p99 latency, the History size at the end of the step (`ll.users` × "
             "`ll.history.peruser` from `run.json`, the rows of a fresh load, plus the successful inserts of the "
             "steps so far; n/a when those properties are not recorded) and the step's verdict under the SLA "
             "rule (for information: a sweep does not stop on it).", ""]
    runs = frames.runs
    for scenario, sweep in frames.sweep.groupby("scenario", sort=False):
        group = runs[(runs["scenario"] == scenario) & runs["sweepGroup"].notna()]
        steps = frames.sweep_steps[frames.sweep_steps["scenario"] == scenario]
        threads = data.join_unique(list(steps["threads"]))
        how = ("one run: `summary.json`'s numbers" if len(group) == 1 else
               f"{len(group)} runs: rates and History size averaged, p99 from the runs' `.hlog` histograms of "
               "each step pooled")
        parts += [f"**{scenario}** — sweep of `{data.join_unique(group['sweepGroup'])}` ({threads} threads; "
                  f"{how})", "", _table(tables.sweep_summary(sweep, frames.sweep_queries)), ""]
    parts.append(figure("queries_vs_inserts",
                        "A sweep, one point per step in step order. Left: the rate each write operation achieved "
                        "against the rate the writers were offered (dotted: achieved = offered). Middle and right: "
                        "the query throughput and the p99 latency of each query operation against the insert rate "
                        "the writers achieved (`HISTORY_INSERT`/s). Crosses are steps that broke the SLA rule, light "
                        "lines single runs of repeated scenarios."))
    return parts
