"""Tiny synthetic run folders whose numbers can be worked out by hand.

Latencies below 2048 µs are exact in a 3-digit HdrHistogram, so the expected percentiles below are
the recorded values themselves.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from tests.synthetic import RunSpec, Sample, Second, sweep_summary, write_run


def simple_seconds() -> list:
    """Three full seconds and a short last one (250 ms), READ/UPDATE, CLEANUP at the end.

    Throughput (all but CLEANUP): 150, 300, 120 ops/s, then 20 ops in 0.25 s = 80 ops/s.
    """
    return [
        Second({"READ": Sample([1000], [100]), "UPDATE": Sample([2000], [50], errors=1)}, threads=2),
        Second({"READ": Sample([1000], [200]), "UPDATE": Sample([1500], [100])}, threads=2),
        Second({"READ": Sample([1000], [120])}, threads=2),
        Second({"READ": Sample([1000], [20]), "CLEANUP": Sample([90, 110])}, threads=2, interval_ms=250),
    ]


RAMP = {
    "ramp": {
        "mode": "threads",
        "sla": {"percentile": 98.0, "latencyMs": 100, "timeoutMs": 10000, "maxErrors": 0},
        "steps": [
            {"step": 1, "threads": 5, "offeredOpsPerSec": None, "startSecond": 1, "endSecond": 2, "operations": 450,
             "errors": 1, "timeouts": 0, "throughput": 225.0, "p50Us": 1000, "p95Us": 2000, "p98Us": 2000,
             "p99Us": 2000, "maxUs": 2000, "verdict": "pass"},
            {"step": 2, "threads": 10, "offeredOpsPerSec": None, "startSecond": 3, "endSecond": 4, "operations": 140,
             "errors": 0, "timeouts": 0, "throughput": 112.0, "p50Us": 1000, "p95Us": 1000, "p98Us": 150000,
             "p99Us": 150000, "maxUs": 150000, "verdict": "sla"},
        ],
    },
    "maxSustainedThroughput": 225.0,
    "peakStep": 1,
    "peakThreads": 5,
    "stopReason": "sla",
    "plateau": {"fromSecond": 1, "toSecond": 3, "seconds": 3, "meanOpsPerSec": 190.0, "minOpsPerSec": 120.0,
                "maxOpsPerSec": 300.0, "ci95Low": 150.5, "ci95High": 229.5, "batchSeconds": 1, "batches": 3},
}


def make_run(folder: Path, label: str | None = "simple", extra: dict | None = None, **options) -> Path:
    return write_run(folder, RunSpec(seconds=simple_seconds(), label=label,
                                     summary_extra=copy.deepcopy(extra or {}), **options))


@pytest.fixture
def simple_run(tmp_path) -> Path:
    """An older-style run: no ramp, no plateau."""
    return make_run(tmp_path / "simple-run")


@pytest.fixture
def ramp_run(tmp_path) -> Path:
    """The same seconds with hand-written ramp and plateau statistics."""
    return make_run(tmp_path / "ramp-run", label="0S", extra=RAMP, binding="mongodb-geo", stop_reason="sla")


def sweep_seconds(read_step2=((1000, 1800), (70, 10)), inserts: int = 45, insert_errors: int = 1) -> list:
    """A location sweep of two 2-second steps (6 threads: 4 readers, 2 writers).

    Step 1 (seconds 1-2, 0 inserts/s offered): LKL_READ 100/s at 1000 µs, HISTORY_RANGE 20/s at 2000 µs.
    Step 2 (seconds 3-4, 50 offered): LKL_READ 80/s (by default 70 at 1000 and 10 at 1800 µs), HISTORY_RANGE
    10/s at 1900 µs, HISTORY_INSERT ``inserts``/s (``insert_errors`` failed in second 3), LKL_UPSERT 40/s,
    LKL_STALE 5/s. CLEANUP in the last second.
    """
    def step2(errors: int) -> dict:
        return {"LKL_READ": Sample(list(read_step2[0]), list(read_step2[1])),
                "HISTORY_RANGE": Sample([1900], [10]),
                "HISTORY_INSERT": Sample([500], [inserts], errors=errors),
                "LKL_UPSERT": Sample([700], [40]), "LKL_STALE": Sample([900], [5])}

    step1 = {"LKL_READ": Sample([1000], [100]), "HISTORY_RANGE": Sample([2000], [20])}
    last = step2(0)
    last["CLEANUP"] = Sample([90])
    return [Second(dict(step1), threads=6), Second(dict(step1), threads=6), Second(step2(insert_errors), threads=6),
            Second(last, threads=6)]


HISTORY_PROPERTIES = {"ll.users": "1000", "ll.history.peruser": "2"}  # 2,000 History rows at the start


def make_sweep_run(folder: Path, label: str = "PostGIS", offered=(0, 50), verdicts=("pass", "sla"),
                   properties: dict | None = None, **seconds) -> Path:
    spec_seconds = sweep_seconds(**seconds)
    sweep = sweep_summary(spec_seconds, list(offered), 2, threads=2, verdicts=list(verdicts))
    return write_run(folder, RunSpec(seconds=spec_seconds, label=label, binding="postgis-geo",
                                     stop_reason="completed", summary_extra={"sweep": sweep},
                                     properties=HISTORY_PROPERTIES if properties is None else properties))


@pytest.fixture
def sweep_run(tmp_path) -> Path:
    return make_sweep_run(tmp_path / "sweep-run")
