"""The one shape every section of report.md has (``Section``), and a numbered figure (``Figure``).

The report (``report.outline``) walks ``sections.SECTIONS`` in order; for each section that
``applies`` to the runs it takes the section's ``data``, numbers the ``figures`` that data draws (one
numbering over the whole report, captions from ``captions``), ``draw``s them, and writes the
section's heading followed by its ``markdown``.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import tables


@dataclass(frozen=True)
class Figure:
    """A figure as report.md places it: its number in the report, id, file and caption."""

    number: int
    id: str
    file: str
    caption: str

    def markdown(self) -> str:
        return f"![Figure {self.number}]({self.file})\n\n*Figure {self.number}. {self.caption}*\n"


class Section:
    """A section of report.md. Subclasses set ``title`` and override what they need; ``frames`` is a
    ``frames.Frames`` (every table computed on first use, so a section pays only for what it reads)."""

    title: str = ""
    level: int = 2  # the heading's level: "## title"

    def heading(self) -> str:
        return f"{'#' * self.level} {self.title}"

    def applies(self, frames) -> bool:
        """Whether this report has the section at all."""
        return True

    def data(self, frames):
        """What the figures and the text are made from (by default the frames themselves)."""
        return frames

    def figures(self, data) -> list[str]:
        """The ids of the figures the section places (keys of ``captions.FILES``), in the order of the text."""
        return []

    def captions(self, data) -> dict:
        """Values for the placeholders of the section's captions."""
        return {}

    def draw(self, figure_id: str, data, palette):
        """The matplotlib figure ``figure_id`` (one of ``figures(data)``), not yet saved."""
        raise NotImplementedError(f"{type(self).__name__} draws no figure {figure_id!r}")

    def markdown(self, data, figures: list[Figure]) -> list[str]:
        """The section's lines under its heading; ``figures``: those of ``figures(data)``, numbered."""
        raise NotImplementedError


def table(pair) -> str:
    """A (table, right-aligned columns) pair of ``tables`` as Markdown."""
    frame, right = pair
    return tables.markdown_table(frame, right)
