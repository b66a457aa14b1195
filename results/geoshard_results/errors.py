"""The one error the report raises for bad input: it always names the file at fault."""

from __future__ import annotations

from pathlib import Path


class RunFolderError(Exception):
    """A run folder, or one of its files, is missing or cannot be read.

    The message starts with the path of the file (and the line, when known) so that a person can
    open it straight away.
    """

    def __init__(self, path: Path | str, problem: str, line: int | None = None):
        self.path = Path(path)
        self.problem = problem
        self.line = line
        where = f"{self.path}:{line}" if line is not None else str(self.path)
        super().__init__(f"{where}: {problem}")
