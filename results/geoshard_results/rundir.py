"""Reading run folders: the only place that touches the files the Java harness writes.

A run folder holds ``run.json``, ``summary.json``, ``timeseries.csv`` and one ``<OPERATION>.hlog``
per operation. Every problem is raised as a RunFolderError naming the file.
"""

from __future__ import annotations

import io
import json
import logging
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from .errors import RunFolderError
from .hlog import IntervalLog, merge_payloads, new_histogram, percentile_values, read_hlog
from .identity import Identity, read_identity, separate

log = logging.getLogger(__name__)

RUN_JSON = "run.json"
SUMMARY_JSON = "summary.json"
TIMESERIES_CSV = "timeseries.csv"
HLOG_SUFFIX = ".hlog"
CLEANUP = "CLEANUP"  # a binding's final flush: reported per operation, never throughput

TIMESERIES_COLUMNS = ["second", "startEpochMs", "intervalMs", "operation", "ops", "errors", "opsPerSec",
                      "p50Us", "p95Us", "p98Us", "p99Us", "maxUs", "threads"]
_TIMESERIES_INTEGERS = ["second", "startEpochMs", "intervalMs", "ops", "errors", "p50Us", "p95Us", "p98Us",
                        "p99Us", "maxUs", "threads"]
SUMMARY_REQUIRED = ["operations", "throughput", "stopReason", "perOperation"]
OPERATION_REQUIRED = ["count", "errors", "p50Us", "p95Us", "p99Us", "maxUs"]
# A sweep step (summary.json "sweep.steps[]") and the per-operation numbers of a step that the report uses.
SWEEP_STEP_NUMBERS = ["step", "offeredOpsPerSec", "startSecond", "endSecond"]
STEP_OPERATION_NUMBERS = ["count", "errors", "throughput", "p99Us"]
# run.json properties from which the History size of a location sweep is worked out.
HISTORY_PROPERTIES = ("ll.users", "ll.history.peruser")


@dataclass(frozen=True)
class Run:
    """One run folder, read and checked."""

    path: Path
    run_id: str  # unique within a report (the folder name, suffixed if two folders share it)
    scenario: str
    meta: dict  # run.json
    summary: dict  # summary.json
    timeseries: pd.DataFrame  # TIMESERIES_COLUMNS
    hlogs: dict[str, IntervalLog] = field(default_factory=dict)  # operation -> log
    identity: Identity | None = None  # what the run is (run.json's identity, or the older fallback)


@dataclass(frozen=True)
class FailedRun:
    """A run folder whose run failed before it measured anything: listed in the report, not analysed."""

    path: Path
    run_id: str
    scenario: str
    status: str
    failure: str


class RunFailed(RunFolderError):
    """A run folder whose run.json says it failed before it could measure (no summary.json)."""

    def __init__(self, folder: Path, meta: dict):
        self.status = str(meta.get("status"))
        self.failure = str(meta.get("failure") or "")
        failure = f": {self.failure}" if self.failure else ""
        super().__init__(folder / SUMMARY_JSON, f"missing: run.json says the run {self.status}{failure}")


@dataclass(frozen=True)
class Inputs:
    """What a report is made of: the runs it analyses and the runs that failed to start."""

    runs: list
    failed: list
    splits: list  # identity.Split: labels whose runs were shown apart


def is_run_folder(path: Path) -> bool:
    return (path / RUN_JSON).is_file()


def expand_run_dirs(paths: list[Path]) -> list[Path]:
    """Run folders as given; a folder that is not one but holds run folders stands for them."""
    expanded = []
    for path in paths:
        if path.is_dir() and not is_run_folder(path):
            children = sorted(child for child in path.iterdir() if child.is_dir() and is_run_folder(child))
            if children:
                log.info("%s: not a run folder; using the %d run folders in it", path, len(children))
                expanded.extend(children)
                continue
        expanded.append(path)
    return expanded


def read_json_object(path: Path) -> dict:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RunFolderError(path, "missing (is this a run folder written by bin/ycsb?)") from None
    except (OSError, UnicodeDecodeError) as error:
        raise RunFolderError(path, f"cannot be read: {error}") from None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise RunFolderError(path, f"not valid JSON ({error.msg} at column {error.colno})", error.lineno) from None
    if not isinstance(value, dict):
        raise RunFolderError(path, f"expected a JSON object, found {type(value).__name__}")
    return value


def check_summary(summary: dict, path: Path) -> None:
    missing = [key for key in SUMMARY_REQUIRED if key not in summary]
    if missing:
        raise RunFolderError(path, f"missing field(s) {', '.join(missing)}")
    if not isinstance(summary["perOperation"], dict):
        raise RunFolderError(path, "perOperation is not an object")
    for operation, stats in summary["perOperation"].items():
        if not isinstance(stats, dict) or any(key not in stats for key in OPERATION_REQUIRED):
            raise RunFolderError(path, f"perOperation.{operation} lacks one of {', '.join(OPERATION_REQUIRED)}")
    for key in ("ramp", "plateau"):
        if summary.get(key) is not None and not isinstance(summary[key], dict):
            raise RunFolderError(path, f"{key} is not an object")
    steps = (summary.get("ramp") or {}).get("steps", [])
    if not isinstance(steps, list) or any(not isinstance(step, dict) or "threads" not in step
                                          or "throughput" not in step for step in steps):
        raise RunFolderError(path, "ramp.steps must be a list of objects with threads and throughput")
    for index, step in enumerate(steps):  # older harnesses wrote no perOperation for ramp steps
        if step.get("perOperation") is not None:
            _check_step_operations(step["perOperation"], f"ramp.steps[{index}]", path, required=[])
    check_sweep(summary, path)


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _check_step_operations(operations, where: str, path: Path, required: list[str]) -> None:
    if not isinstance(operations, dict):
        raise RunFolderError(path, f"{where}.perOperation is not an object")
    for operation, stats in operations.items():
        if not isinstance(stats, dict):
            raise RunFolderError(path, f"{where}.perOperation.{operation} is not an object")
        missing = [key for key in required if key not in stats]
        if missing:
            raise RunFolderError(path, f"{where}.perOperation.{operation} lacks {', '.join(missing)}")
        for key in required:
            if not _is_number(stats[key]) or stats[key] < 0:
                raise RunFolderError(path, f"{where}.perOperation.{operation}.{key} is not a number "
                                           f"≥ 0: {stats[key]!r}")


def check_sweep(summary: dict, path: Path) -> None:
    """A sweep (``"sweep": {"group", "steps": [...]}``) must have every field the report reads."""
    sweep = summary.get("sweep")
    if sweep is None:
        return
    if not isinstance(sweep, dict):
        raise RunFolderError(path, "sweep is not an object")
    if "group" in sweep and not isinstance(sweep["group"], str):
        raise RunFolderError(path, f"sweep.group is not a name: {sweep['group']!r}")
    steps = sweep.get("steps")
    if not isinstance(steps, list):
        raise RunFolderError(path, "sweep.steps is missing or not a list")
    seen = set()
    for index, step in enumerate(steps):
        where = f"sweep.steps[{index}]"
        if not isinstance(step, dict):
            raise RunFolderError(path, f"{where} is not an object")
        missing = [key for key in [*SWEEP_STEP_NUMBERS, "verdict", "perOperation"] if key not in step]
        if missing:
            raise RunFolderError(path, f"{where} lacks {', '.join(missing)}")
        for key in SWEEP_STEP_NUMBERS:
            if not _is_number(step[key]):
                raise RunFolderError(path, f"{where}.{key} is not a number: {step[key]!r}")
        if step["step"] in seen:
            raise RunFolderError(path, f"{where}: step {step['step']!r} appears twice")
        seen.add(step["step"])
        _check_step_operations(step["perOperation"], where, path, STEP_OPERATION_NUMBERS)


def check_sweep_properties(meta: dict, path: Path) -> None:
    """The properties the History size comes from: absent is fine (n/a), present must be whole numbers."""
    properties = meta.get("properties")
    if properties is None:
        return
    if not isinstance(properties, dict):
        raise RunFolderError(path, "properties is not an object")
    for key in HISTORY_PROPERTIES:
        value = properties.get(key)
        if value is not None and whole_number(value) is None:
            raise RunFolderError(path, f"properties.{key} is not a whole number ≥ 0: {value!r}")


def whole_number(value) -> int | None:
    """A property value ("20000" or 20000) as an int ≥ 0, else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value >= 0 else None
    if isinstance(value, str) and re.fullmatch(r"[0-9]+", value.strip()):
        return int(value.strip())
    return None


def read_timeseries(path: Path) -> pd.DataFrame:
    try:
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
    except FileNotFoundError:
        raise RunFolderError(path, "missing (is this a run folder written by bin/ycsb?)") from None
    except (OSError, UnicodeDecodeError) as error:
        raise RunFolderError(path, f"cannot be read: {error}") from None
    if len(lines) > 1 and not text.endswith(("\n", "\r")):
        # The harness ends every row it writes: a row without its end was cut off by a crash.
        log.warning("%s:%d: the last row is cut off (the run did not end normally); left out", path, len(lines))
        lines = lines[:-1]
    header = lines[0].strip() if lines else ""
    if header.split(",") != TIMESERIES_COLUMNS:
        raise RunFolderError(path, f"unexpected header {header[:120]!r}; expected {','.join(TIMESERIES_COLUMNS)!r}", 1)
    for number, line in enumerate(lines[1:], start=2):
        fields = line.count(",") + 1
        if line.strip() and fields != len(TIMESERIES_COLUMNS):
            raise RunFolderError(path, f"expected {len(TIMESERIES_COLUMNS)} fields, found {fields}", number)
    try:
        frame = pd.read_csv(io.StringIO("\n".join(lines)), dtype={"operation": str}, keep_default_na=False)
    except (pd.errors.ParserError, ValueError) as error:
        raise RunFolderError(path, f"not a well-formed CSV ({str(error).strip()})") from None
    for column in TIMESERIES_COLUMNS:
        if column == "operation":
            continue
        numbers = pd.to_numeric(frame[column], errors="coerce")
        bad = numbers.isna()
        if bad.any():
            row = int(bad.to_numpy().argmax())
            raise RunFolderError(path, f"column {column} is not a number: {frame[column].iloc[row]!r}", row + 2)
        frame[column] = numbers.astype("int64") if column in _TIMESERIES_INTEGERS else numbers.astype(float)
    if (frame["intervalMs"] <= 0).any():
        row = int((frame["intervalMs"] <= 0).to_numpy().argmax())
        raise RunFolderError(path, "intervalMs must be positive", row + 2)
    return frame


def read_hlogs(folder: Path, timeseries: pd.DataFrame, summary: dict) -> dict[str, IntervalLog]:
    """Every .hlog in the folder; an operation that measured something must have one."""
    logs = {p.name[: -len(HLOG_SUFFIX)]: read_hlog(p) for p in sorted(folder.glob("*" + HLOG_SUFFIX))}
    measured = set(timeseries.loc[timeseries["ops"] > 0, "operation"])
    measured |= {op for op, stats in summary["perOperation"].items() if stats.get("count", 0) > 0}
    missing = sorted(measured - set(logs))
    if missing:
        raise RunFolderError(folder / f"{missing[0]}{HLOG_SUFFIX}",
                             f"missing: the run measured {missing[0]} but its latency log is not there")
    return logs


def load_run(folder: Path, run_id: str, label: str | None = None) -> Run:
    """Reads one run folder; ``label`` (from --label) overrides run.json's label and the folder name."""
    folder = Path(folder)
    if not folder.exists():
        raise RunFolderError(folder, "no such run folder")
    if not folder.is_dir():
        raise RunFolderError(folder, "not a folder")
    meta = read_json_object(folder / RUN_JSON)
    crashed = not (folder / SUMMARY_JSON).exists() and meta.get("status") == "running"
    if not (folder / SUMMARY_JSON).exists() and not crashed and meta.get("status"):
        raise RunFailed(folder, meta)
    timeseries = read_timeseries(folder / TIMESERIES_CSV)
    if crashed:
        # Killed (kill -9, a power cut): run.json still says "running" and no summary was written.
        log.warning("%s: the run crashed (run.json says running, there is no summary.json); its summary is rebuilt"
                    " from timeseries.csv and the .hlog files", folder)
        hlogs = read_hlogs(folder, timeseries, {"perOperation": {}})
        summary = crashed_summary(timeseries, hlogs)
        meta = {**meta, "status": "crashed"}
    else:
        summary = read_json_object(folder / SUMMARY_JSON)
    check_summary(summary, folder / SUMMARY_JSON)
    if summary.get("sweep") is not None:
        check_sweep_properties(meta, folder / RUN_JSON)
    if not crashed:
        hlogs = read_hlogs(folder, timeseries, summary)
    identity = read_identity(meta, folder / RUN_JSON)
    scenario = label or meta.get("label") or folder.name
    log.debug("read %s as scenario %r (%d intervals, %d logs)", folder, scenario,
              timeseries["second"].nunique(), len(hlogs))
    return Run(path=folder, run_id=run_id, scenario=str(scenario), meta=meta, summary=summary,
               timeseries=timeseries, hlogs=hlogs, identity=identity)


def crashed_summary(timeseries: pd.DataFrame, hlogs: dict[str, IntervalLog]) -> dict:
    """What summary.json would have said, from what a crashed run left: the per-second counts of
    timeseries.csv and the latency histograms of the .hlog files. ``stopReason`` is ``crashed``;
    there is no ramp verdict or plateau (the harness computes those when a run ends)."""
    measured = timeseries[timeseries["operation"] != CLEANUP]
    operations = int(measured["ops"].sum())
    errors = int(measured["errors"].sum())
    if len(timeseries):
        runtime_ms = int((timeseries["startEpochMs"] + timeseries["intervalMs"]).max() - timeseries["startEpochMs"].min())
    else:
        runtime_ms = 0
    per_operation = {}
    for operation, frame in timeseries.groupby("operation", sort=False):
        interval_log = hlogs.get(operation)
        if interval_log is None:
            histogram = new_histogram()
        else:
            histogram = merge_payloads(interval_log.intervals["payload"],
                                       [f"{interval_log.path}:{line}" for line in interval_log.intervals["line"]])
        values = percentile_values(histogram, (50.0, 95.0, 98.0, 99.0, 99.9))
        empty = histogram.get_total_count() == 0
        per_operation[operation] = {
            "count": int(frame["ops"].sum()), "errors": int(frame["errors"].sum()),
            "meanUs": 0.0 if empty else float(histogram.get_mean_value()),
            "minUs": 0 if empty else int(histogram.get_min_value()),
            **{name: 0 if empty else int(values[p]) for name, p in
               (("p50Us", 50.0), ("p95Us", 95.0), ("p98Us", 98.0), ("p99Us", 99.0), ("p999Us", 99.9))},
            "maxUs": 0 if empty else int(histogram.get_max_value()),
        }
    return {
        "operations": operations,
        "errors": errors,
        "succeeded": max(0, operations - errors),
        "throughput": max(0, operations - errors) * 1000.0 / runtime_ms if runtime_ms > 0 else 0.0,
        "runtimeMs": runtime_ms,
        "stopReason": "crashed",
        "threads": int(timeseries["threads"].max()) if len(timeseries) else 0,
        "perOperation": per_operation,
        "rebuiltFromTimeseries": True,
    }


def unique_run_ids(folders: list[Path]) -> list[str]:
    """Folder names, with #2, #3... added where two folders share one."""
    seen: dict[str, int] = {}
    ids = []
    for folder in folders:
        name = folder.resolve().name
        seen[name] = seen.get(name, 0) + 1
        ids.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return ids


def load_runs(folders: list[Path], labels: dict[Path, str] | None = None) -> list[Run]:
    """The runs of ``read_inputs``; a run that failed to start is an error here."""
    inputs = read_inputs(folders, labels, keep_failed=False)
    return inputs.runs


def read_inputs(folders: list[Path], labels: dict[Path, str] | None = None, keep_failed: bool = True) -> Inputs:
    """Reads the run folders in order; ``labels`` maps resolved folder paths to scenario names.

    Runs under one label with different identities are renamed apart (identity.separate). With
    ``keep_failed``, a run whose run.json says it failed to start is listed, not read, as long as
    another run is left to report on.
    """
    labels = labels or {}
    distinct = []
    for folder in folders:
        if any(folder.resolve() == known.resolve() for known in distinct):
            log.warning("%s: given twice; read once", folder)
            continue
        distinct.append(folder)
    runs, failed, first_failure = [], [], None
    for folder, run_id in zip(distinct, unique_run_ids(distinct)):
        try:
            runs.append(load_run(folder, run_id, labels.get(folder.resolve())))
        except RunFailed as error:
            if not keep_failed:
                raise
            first_failure = first_failure or error
            meta = read_json_object(Path(folder) / RUN_JSON)
            scenario = labels.get(folder.resolve()) or meta.get("label") or Path(folder).name
            log.warning("%s: the run %s%s; listed as failed, not analysed", folder, error.status,
                        f" ({error.failure})" if error.failure else "")
            failed.append(FailedRun(path=Path(folder), run_id=run_id, scenario=str(scenario), status=error.status,
                                    failure=error.failure))
    if not runs and first_failure is not None:
        raise first_failure
    runs, splits = separate(runs)
    return Inputs(runs=runs, failed=failed, splits=splits)
