"""Command line: ``bin/ycsb report RUN_DIR... [-o OUT_DIR] [--label NAME=RUN_DIR ...]``."""

from __future__ import annotations

import argparse
import logging
import sys
from datetime import datetime, timezone
from pathlib import Path

from .errors import RunFolderError
from .report import build_report
from .rundir import expand_run_dirs, read_inputs
from .study import STUDY_WINDOW, StudyOptions, parse_run_trim, parse_trim, run_trims, study_runs

log = logging.getLogger("geoshard_results")

RESULTS_HOME = Path(__file__).resolve().parent.parent
EXIT_OK, EXIT_BAD_INPUT, EXIT_USAGE = 0, 1, 2


def default_out_dir(now: datetime | None = None) -> Path:
    now = now or datetime.now(timezone.utc)
    return RESULTS_HOME / "reports" / now.strftime("%Y%m%dT%H%M%SZ")


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="bin/ycsb report",
        description="Turn run folders into report.md with tables and figures. Run folders with the same "
                    "label and the same identity (run.json: command, binding, workload, scenario properties) are "
                    "repeats of one scenario; runs of different identity under one label are shown apart.",
        epilog="Example: bin/ycsb report --label 0S=results/runs/A --label 2S=results/runs/B -o /tmp/report")
    parser.add_argument("run_dirs", nargs="*", type=Path, metavar="RUN_DIR",
                        help="a run folder (or a folder of run folders)")
    parser.add_argument("-o", "--out", type=Path, metavar="OUT_DIR",
                        help="where to write the report (default: results/reports/<UTC time>)")
    parser.add_argument("--label", action="append", default=[], metavar="NAME=RUN_DIR",
                        help="scenario name of a run folder (default: run.json's label, else the folder name); "
                             "the folder is added to the report if not listed")
    parser.add_argument("--study-window", type=int, default=STUDY_WINDOW, metavar="SECONDS",
                        help="rolling mean of the section 'As the study reports it' (default: the study's 50)")
    parser.add_argument("--study-trim", metavar="START:END",
                        help="seconds cut from the start and the end of every run in that section (default: the "
                             "study's: 200:20 without shards, 80:0 on 2 or more shards)")
    parser.add_argument("--study-trim-run", action="append", default=[], metavar="RUN_DIR=START:END",
                        help="one run's own cut in that section (the run folder or its id; repeatable; the study "
                             "cut its sharded runs' ends by hand); wins over --study-trim")
    parser.add_argument("-v", "--verbose", action="store_true", help="log details")
    parser.add_argument("-q", "--quiet", action="store_true", help="log warnings and errors only")
    args = parser.parse_args(argv)
    args.labels = []
    for option in args.label:
        name, equals, folder = option.partition("=")
        if not equals or not name.strip() or not folder:
            parser.error(f"--label {option!r}: expected NAME=RUN_DIR")
        args.labels.append((name.strip(), Path(folder)))
    if not args.run_dirs and not args.labels:
        parser.error("give at least one RUN_DIR")
    trim, run_trims_given = None, []
    try:
        trim = parse_trim(args.study_trim) if args.study_trim is not None else None
    except ValueError as error:
        parser.error(f"--study-trim: {error}")
    for option in args.study_trim_run:
        try:
            run_trims_given.append(parse_run_trim(option))
        except ValueError as error:
            parser.error(f"--study-trim-run: {error}")
    try:
        args.study = StudyOptions(args.study_window, trim, tuple(run_trims_given))
    except ValueError as error:
        parser.error(f"--study-window/--study-trim-run: {error}")
    return args


class _Formatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        prefix = "" if record.levelno < logging.WARNING else record.levelname.lower() + ": "
        return f"report: {prefix}{record.getMessage()}"


def configure_logging(verbose: bool, quiet: bool) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_Formatter())
    log.handlers[:] = [handler]
    log.propagate = False
    log.setLevel(logging.DEBUG if verbose else logging.WARNING if quiet else logging.INFO)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    configure_logging(args.verbose, args.quiet)
    folders = expand_run_dirs(list(args.run_dirs)) + [folder for _, folder in args.labels]
    labels = {folder.resolve(): name for name, folder in args.labels}
    out_dir = args.out or default_out_dir()
    try:
        inputs = read_inputs(folders, labels)
        log.info("read %d run(s) in %d scenario(s)", len(inputs.runs), len({run.scenario for run in inputs.runs}))
        try:
            # A --study-trim-run that names no run of the section (loads are not in it) is refused before any work.
            run_trims(study_runs(inputs.runs), args.study)
        except ValueError as error:
            log.error("%s", error)
            return EXIT_USAGE
        report = build_report(inputs.runs, out_dir, args.study, failed=inputs.failed, splits=inputs.splits)
    except RunFolderError as error:
        log.error("%s", error)
        return EXIT_BAD_INPUT
    except OSError as error:
        log.error("%s: cannot write the report: %s", error.filename or out_dir, error.strerror or error)
        return EXIT_BAD_INPUT
    print(f"Report written to {report}")
    return EXIT_OK
