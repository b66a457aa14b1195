"""The sections of report.md, in ONE ordered list (``SECTIONS``): the report's own (introduction,
scenarios, throughput, latency, ramp steps, runs, cross-check, inputs) defined here, the others beside
their data (``sweep``, ``targeting``, ``migrations``, ``blockio``, ``servers``, ``study``). Every section has
the shape of ``section.Section``; figures are numbered in the order of this list."""

from __future__ import annotations

import math
from datetime import datetime, timezone

from . import blockio, data, migrations, plotting, servers, study, sweep, tables, targeting
from .section import Section, table


def _resolution(frames) -> str:
    return "1 s interval" if frames.window == 1 else f"{frames.window} s window (the runs are long)"


class Introduction(Section):
    title = "geoshard benchmark report"
    level = 1

    def markdown(self, frames, figures) -> list[str]:
        generated = frames.generated or datetime.now(timezone.utc)
        runs, failed = frames.runs, frames.failed
        scenario_names = list(dict.fromkeys(runs["scenario"]))
        return [
            f"Generated {generated:%Y-%m-%d %H:%M} UTC by `bin/ycsb report` from {len(runs)} run folder(s) in "
            f"{len(scenario_names)} scenario(s): {', '.join(f'**{name}**' for name in scenario_names)}."
            + (f" {len(failed)} more run folder(s) failed to start and are listed under Runs. " if failed else " ")
            + "Throughput counts every operation except `CLEANUP`; latencies are in milliseconds.",
            "",
            *(line for split in frames.splits for line in (f"**Shown apart:** {split.sentence()}.", "")),
        ]


class Scenarios(Section):
    title = "Scenarios"

    def markdown(self, frames, figures) -> list[str]:
        return [table(tables.scenario_overview(frames.runs)), ""]


class MaximumSustainedThroughput(Section):
    """The summary table, then the throughput figures and the latency over time."""

    title = "Maximum sustained throughput"

    def figures(self, frames) -> list[str]:
        return ["max_throughput", "throughput_vs_threads", "throughput_over_time", "latency_over_time"]

    def captions(self, frames) -> dict:
        return {"resolution": _resolution(frames)}

    def draw(self, figure_id, frames, palette):
        if figure_id == "max_throughput":
            return plotting.max_throughput_figure(frames.bars, palette)
        if figure_id == "throughput_vs_threads":
            return plotting.throughput_vs_threads_figure(frames.load_points, palette)
        if figure_id == "throughput_over_time":
            return plotting.throughput_over_time_figure(frames.plotted, frames.scenario_means, frames.boundaries,
                                                        palette, frames.window)
        return plotting.latency_over_time_figure(frames.latency, frames.threads, frames.runs, palette, frames.window)

    def markdown(self, frames, figures) -> list[str]:
        repeated = (frames.scenarios["runs"] > 1).any()
        return [
            table(tables.scenario_summary(frames.scenarios)),
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
            *(figure.markdown() for figure in figures),
        ]


class LatencyPerOperation(Section):
    title = "Latency per operation"

    def figures(self, frames) -> list[str]:
        return ["latency_distribution"]

    def draw(self, figure_id, frames, palette):
        return plotting.latency_distribution_figure(frames.curves, palette)

    def markdown(self, frames, figures) -> list[str]:
        return [
            table(tables.operation_summary(frames.operations)),
            "",
            "For a single run the numbers are the harness's (`summary.json`); for repeated runs counts and errors "
            "are added and the percentiles come from the runs' `.hlog` histograms pooled (never averaged).",
            "",
            *(figure.markdown() for figure in figures),
        ]


class RampSteps(Section):
    title = "Ramp steps"

    def applies(self, frames) -> bool:
        return bool(len(frames.steps))

    def markdown(self, frames, figures) -> list[str]:
        parts, runs = [], frames.runs
        for run_id, steps in frames.steps.groupby("runId", sort=False):
            row = runs[runs["runId"] == run_id].iloc[0]
            sla = ""
            if not math.isnan(row["slaLatencyMs"]):
                sla = f"; SLA p{row['slaPercentile']:g} ≤ {row['slaLatencyMs']:g} ms"
            parts += [f"**{row['scenario']}** — `{run_id}` ({row['rampMode'] or 'threads'} ramp{sla}; "
                      f"stopped: {row['stopReason']})", "", table(tables.steps_summary(steps)), ""]
        return parts


class Runs(Section):
    """One row per run folder; then the runs that failed to start."""

    title = "Runs"

    def markdown(self, frames, figures) -> list[str]:
        parts = [table(tables.runs_summary(frames.runs)), ""]
        if frames.failed:
            parts += ["Runs that failed to start (`status` and `failure` from their `run.json`; nothing measured):",
                      "", table(tables.failed_summary(frames.failed)), ""]
        return parts


class CrossCheck(Section):
    title = "Cross-check"

    def markdown(self, frames, figures) -> list[str]:
        check = frames.crosscheck
        if not len(check):
            return ["No run has plateau statistics in `summary.json`, so there was nothing to cross-check.", ""]
        if check["agrees"].all():
            return [f"The plateau means of all {len(check)} run(s) with plateau statistics, recomputed from "
                    f"`timeseries.csv`, agree with `summary.json` within {100 * data.CROSSCHECK_TOLERANCE:g}%.", ""]
        return [f"Plateau means recomputed from `timeseries.csv` that differ from `summary.json` by more than "
                f"{100 * data.CROSSCHECK_TOLERANCE:g}% (check these runs):", "",
                table(tables.crosscheck_summary(check[~check["agrees"]])), ""]


class Inputs(Section):
    title = "Inputs"

    def markdown(self, frames, figures) -> list[str]:
        return ([f"- **{row['scenario']}**: `{row['path']}`" for _, row in frames.runs.iterrows()]
                + [f"- **{run.scenario}** (failed to start): `{run.path}`" for run in frames.failed])


# The report's sections in order. The figures are numbered in this order, so the servers' figure (drawn
# from the servers' own readings) comes after every figure of the client's.
SECTIONS: list[Section] = [
    Introduction(),
    Scenarios(),
    MaximumSustainedThroughput(),
    LatencyPerOperation(),
    RampSteps(),
    sweep.QueriesUnderInserts(),
    targeting.QueryTargeting(),
    migrations.ChunkMigrations(),
    blockio.BlockIO(),
    servers.Servers(),
    study.AsTheStudyReportsIt(),
    Runs(),
    CrossCheck(),
    Inputs(),
]
