"""Assembles the report: the sections of ``sections.SECTIONS`` in order, each with its figures (one
numbering over the whole report) and its text, into report.md."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from . import captions, plotting, study, sweep
from .frames import Frames, compute_frames
from .identity import Split
from .rundir import FailedRun, Run
from .section import Figure, Section
from .section import table as _table  # noqa: F401  (tests render single sections with it)
from .sections import SECTIONS

log = logging.getLogger(__name__)

__all__ = ["FIGURES", "REPORT_FILE", "SWEEP_FIGURES", "Frames", "Placed", "build_report", "compute_frames",
           "figure_file", "outline", "render_markdown"]

# The figures of every report (id -> file); the others are drawn only when the runs have what they show.
FIGURES = {figure_id: captions.FILES[figure_id] for figure_id in
           ("max_throughput", "throughput_vs_threads", "throughput_over_time", "latency_over_time",
            "latency_distribution")}
SWEEP_FIGURES = {"queries_vs_inserts": captions.FILES["queries_vs_inserts"]}  # when a run has a sweep
REPORT_FILE = "report.md"


def figure_file(figure_id: str) -> str:
    return captions.FILES[figure_id]


@dataclass
class Placed:
    """A section as this report has it: its data and its figures, numbered."""

    section: Section
    data: object
    figures: list[Figure]

    def lines(self) -> list[str]:
        return [self.section.heading(), "", *self.section.markdown(self.data, self.figures)]


def outline(frames: Frames, sections: list[Section] = SECTIONS) -> list[Placed]:
    """The sections that apply to ``frames``, in order, with their figures numbered from 1 over all of them."""
    placed, number = [], 0
    for section in sections:
        if not section.applies(frames):
            continue
        data = section.data(frames)
        values = section.captions(data)
        figures = []
        for figure_id in section.figures(data):
            number += 1
            figures.append(Figure(number, figure_id, captions.FILES[figure_id], captions.caption(figure_id, **values)))
        placed.append(Placed(section, data, figures))
    return placed


def markdown(placed: list[Placed]) -> str:
    return "\n".join(line for part in placed for line in part.lines()) + "\n"


def render_markdown(frames: Frames, generated: datetime | None = None, failed: list[FailedRun] | None = None,
                    splits: list[Split] | None = None) -> str:
    """report.md (draws nothing); ``generated``, ``failed`` and ``splits`` replace those of ``frames``."""
    changes = {name: value for name, value in (("generated", generated), ("failed", failed), ("splits", splits))
               if value is not None}
    return markdown(outline(frames.replaced(**changes) if changes else frames))


def build_report(runs: list[Run], out_dir: Path, study_options: study.StudyOptions | None = None,
                 failed: list[FailedRun] = (), splits: list[Split] = ()) -> Path:
    """Writes the figures and report.md into ``out_dir``; returns the path of report.md. ``failed``:
    runs that failed to start (listed); ``splits``: labels whose runs were shown apart (noted)."""
    frames = compute_frames(runs, study_options, failed, splits)
    sweep.warn(frames)
    for _, row in frames.crosscheck[~frames.crosscheck["agrees"]].iterrows():
        log.warning("%s: plateau mean in summary.json (%.1f ops/s) differs by %.1f%% from timeseries.csv (%.1f)",
                    row["runId"], row["harnessMean"], 100 * row["relativeDifference"], row["recomputedMean"])
    out_dir.mkdir(parents=True, exist_ok=True)
    palette = plotting.Palette(frames.runs["scenario"])
    placed = outline(frames)
    for part in placed:
        for figure in part.figures:
            path = plotting.save_figure(part.section.draw(figure.id, part.data, palette), out_dir / figure.file)
            log.info("wrote %s", path)
    report = out_dir / REPORT_FILE
    report.write_text(markdown(placed), encoding="utf-8")
    return report
