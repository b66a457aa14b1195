"""Tiny synthetic run folders whose numbers can be worked out by hand.

Latencies below 2048 µs are exact in a 3-digit HdrHistogram, so the expected percentiles below are
the recorded values themselves.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from tests.synthetic import RunSpec, Sample, Second, write_run


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
