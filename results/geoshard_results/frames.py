"""The report's inputs and every table made from them, each computed on first use.

A section reads only the tables it needs (``functools.cached_property``): writing report.md alone merges
no latency histogram for the figures, and a report without sweeps, traces or servers never builds
their tables.
"""

from __future__ import annotations

import copy
import logging
from datetime import datetime
from functools import cached_property

import pandas as pd

from . import blockio, data, migrations, servers, sweep, targeting
from .identity import Split
from .rundir import FailedRun, Run
from .study import StudyOptions

log = logging.getLogger(__name__)


class Frames:
    """Everything the sections are drawn from: the runs read (``inputs``), the options of the report,
    and the tables, each a property computed once, on first use."""

    def __init__(self, inputs: list[Run], study_options: StudyOptions | None = None,
                 failed: list[FailedRun] = (), splits: list[Split] = (), generated: datetime | None = None):
        self.inputs = list(inputs)
        self.study_options = study_options  # the section "As the study reports it" (None: the study's own)
        self.failed = list(failed)  # runs that failed to start (listed under Runs)
        self.splits = list(splits)  # labels whose runs were shown apart (noted under the introduction)
        self.generated = generated  # the time report.md says it was generated (None: now)

    def replaced(self, **inputs) -> "Frames":
        """These frames with other ``failed``, ``splits`` or ``generated`` (the tables computed so far kept)."""
        other = copy.copy(self)
        for name, value in inputs.items():
            setattr(other, name, list(value) if name in ("failed", "splits") else value)
        return other

    # One row per run, per scenario ------------------------------------------------------------

    @cached_property
    def runs(self) -> pd.DataFrame:
        return data.runs_frame(self.inputs)

    @cached_property
    def scenarios(self) -> pd.DataFrame:
        return data.scenario_table(self.runs)

    @cached_property
    def bars(self) -> pd.DataFrame:
        return data.max_throughput_bars(self.runs)

    # Throughput over time ---------------------------------------------------------------------

    @cached_property
    def per_second(self) -> pd.DataFrame:
        """1 s resolution (tables, cross-check)."""
        return data.throughput_per_second(data.timeseries_frame(self.inputs))

    @cached_property
    def window(self) -> int:
        """Seconds per point in the time figures."""
        return data.window_seconds(self.per_second["second"].max() if len(self.per_second) else 0)

    @cached_property
    def plotted(self) -> pd.DataFrame:
        """per_second in windows of ``window`` seconds."""
        return data.resample_throughput(self.per_second, self.window)

    @cached_property
    def scenario_means(self) -> pd.DataFrame:
        return data.scenario_mean_throughput(self.plotted)

    @cached_property
    def threads(self) -> pd.DataFrame:
        return data.threads_over_time(self.plotted)

    # Ramp steps -------------------------------------------------------------------------------

    @cached_property
    def steps(self) -> pd.DataFrame:
        return data.steps_frame(self.inputs)

    @cached_property
    def load_points(self) -> pd.DataFrame:
        return data.throughput_vs_threads(self.runs, self.steps)

    @cached_property
    def boundaries(self) -> pd.DataFrame:
        return data.step_boundaries(self.steps)

    # Latencies --------------------------------------------------------------------------------

    @cached_property
    def intervals(self) -> pd.DataFrame:
        """Every interval histogram of every run (still compressed)."""
        log.info("merging latency histograms of %d runs", len(self.inputs))
        return data.intervals_frame(self.inputs)

    @cached_property
    def histograms(self) -> dict:
        return data.pooled_operation_histograms(self.intervals)

    @cached_property
    def latency(self) -> pd.DataFrame:
        return data.latency_over_time(self.intervals, window=self.window)

    @cached_property
    def operations(self) -> pd.DataFrame:
        return data.operation_table(data.operations_frame(self.inputs), self.histograms)

    @cached_property
    def curves(self) -> pd.DataFrame:
        return data.distribution_curves(self.histograms)

    @cached_property
    def crosscheck(self) -> pd.DataFrame:
        return data.plateau_crosscheck(self.runs, self.per_second)

    # Sweeps -----------------------------------------------------------------------------------

    @cached_property
    def sweep_steps(self) -> pd.DataFrame:
        """Every sweep step of every run."""
        return sweep.sweep_steps_frame(self.inputs)

    @cached_property
    def sweep(self) -> pd.DataFrame:
        """Per scenario and step (repeats combined)."""
        return sweep.sweep_table(self.sweep_steps, self.intervals if len(self.sweep_steps) else pd.DataFrame())

    @cached_property
    def sweep_queries(self) -> list[str]:
        """The query operations shown for sweeps."""
        return sweep.sweep_query_operations(self.sweep_steps)

    # What run.json and the run folder add -----------------------------------------------------

    @cached_property
    def io(self) -> pd.DataFrame:
        """Every traced block request (trace.io)."""
        return blockio.io_frame(self.inputs)

    @cached_property
    def io_summary(self) -> pd.DataFrame:
        return blockio.io_summary(self.io)

    @cached_property
    def targeting(self) -> pd.DataFrame:
        """queryTargeting of run.json."""
        return targeting.targeting_frame(self.inputs)

    @cached_property
    def migrations(self) -> pd.DataFrame:
        """migrations of run.json (sharded MongoDB)."""
        return migrations.migrations_frame(self.inputs)

    @cached_property
    def servers(self) -> pd.DataFrame:
        """servers.csv of every run (the server sampler)."""
        return servers.servers_frame(self.inputs)


def compute_frames(runs: list[Run], study_options: StudyOptions | None = None, failed: list[FailedRun] = (),
                   splits: list[Split] = ()) -> Frames:
    """The frames of ``runs`` (nothing is computed until a table is read)."""
    return Frames(runs, study_options, failed, splits)
