"""Writers of synthetic run folders, in the harness's format (run.json, summary.json,
timeseries.csv, <OPERATION>.hlog), for the tests and for looking at the figures.

``write_run`` writes exactly what it is given: the tests put hand-chosen numbers in and check that
the report shows them. ``realistic_study`` builds a larger, plausible 0S/2S/3S + PostGIS study.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from hdrh.histogram import HdrHistogram

from geoshard_results.stats import batch_means

BASE_EPOCH_MS = 1_795_305_369_615
HEADER = "second,startEpochMs,intervalMs,operation,ops,errors,opsPerSec,p50Us,p95Us,p98Us,p99Us,maxUs,threads"


@dataclass
class Sample:
    """Latencies (µs) measured for one operation in one interval: ``values`` with ``counts``."""

    values: list
    counts: list | None = None
    errors: int = 0

    def histogram(self) -> HdrHistogram:
        histogram = HdrHistogram(1, 3_600_000_000, 3)
        for value, count in zip(self.values, self.counts or [1] * len(self.values)):
            if count:
                histogram.record_value(int(value), int(count))
        return histogram


@dataclass
class Second:
    samples: dict  # operation -> Sample
    threads: int = 1
    interval_ms: int = 1000


@dataclass
class RunSpec:
    seconds: list
    label: str | None = "scenario"
    binding: str = "noop"
    command: str = "run"
    base_epoch_ms: int = BASE_EPOCH_MS
    summary_extra: dict = field(default_factory=dict)
    stop_reason: str = "time"
    properties: dict = field(default_factory=dict)  # added to run.json's properties
    workload: str = "synthetic.Workload"
    with_identity: bool = True  # False: run.json as an older harness wrote it, without "identity"


def _stats(histogram: HdrHistogram, errors: int, with_mean: bool = False) -> dict:
    count = histogram.get_total_count()
    if count == 0:
        return {"count": 0, "errors": errors, "meanUs": 0.0, "minUs": 0, "p50Us": 0, "p95Us": 0, "p98Us": 0,
                "p99Us": 0, "p999Us": 0, "maxUs": 0}
    # hdrh's mean walks every bucket in Python: only worth it for the summary's totals.
    mean = round(histogram.get_mean_value(), 2) if with_mean else 0.0
    return {"count": count, "errors": errors, "meanUs": mean,
            "minUs": histogram.get_min_value(),
            **_percentiles(histogram, {"p50Us": 50, "p95Us": 95, "p98Us": 98, "p99Us": 99, "p999Us": 99.9}),
            "maxUs": histogram.get_max_value()}


def _percentiles(histogram: HdrHistogram, names: dict) -> dict:
    """name -> value at percentile, in one pass over the histogram."""
    values = histogram.get_percentile_to_value_dict(list(names.values()))
    return {name: values[p] for name, p in names.items()}


def write_run(folder: Path, spec: RunSpec) -> Path:
    """Writes a complete run folder for ``spec``; returns the folder."""
    folder.mkdir(parents=True, exist_ok=True)
    base = spec.base_epoch_ms
    rows, logs, totals, errors = [HEADER], {}, {}, {}
    elapsed_ms = 0
    for index, second in enumerate(spec.seconds, start=1):
        start = base + elapsed_ms
        for operation, sample in second.samples.items():
            histogram = sample.histogram()
            stats = _stats(histogram, sample.errors)
            rate = max(0, stats["count"] - sample.errors) * 1000.0 / second.interval_ms  # successful ops only
            rows.append(f"{index},{start},{second.interval_ms},{operation},{stats['count']},{sample.errors},"
                        f"{rate:.1f},{stats['p50Us']},{stats['p95Us']},{stats['p98Us']},{stats['p99Us']},"
                        f"{stats['maxUs']},{second.threads}")
            logs.setdefault(operation, []).append(
                f"{elapsed_ms / 1000:.3f},{second.interval_ms / 1000:.3f},{stats['maxUs'] / 1000:.3f},"
                f"{histogram.encode().decode('ascii')}")
            totals.setdefault(operation, HdrHistogram(1, 3_600_000_000, 3)).add(histogram)
            errors[operation] = errors.get(operation, 0) + sample.errors
        elapsed_ms += second.interval_ms
    (folder / "timeseries.csv").write_text("\n".join(rows) + "\n")
    for operation, lines in logs.items():
        header = [f"#[geoshard operation {operation}, latency values in microseconds]",
                  "#[Histogram log format version 1.3]",
                  f"#[StartTime: {base / 1000:.3f} (seconds since epoch), synthetic]",
                  f"#[BaseTime: {base / 1000:.3f} (seconds since epoch)]",
                  '"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"']
        (folder / f"{operation}.hlog").write_text("\n".join(header + lines) + "\n")
    overall = HdrHistogram(1, 3_600_000_000, 3)
    for histogram in totals.values():
        overall.add(histogram)
    operations = overall.get_total_count()
    threads = max((s.threads for s in spec.seconds), default=0)
    summary = {"operations": operations, "errors": sum(errors.values()),
               "throughput": round(operations * 1000.0 / max(elapsed_ms, 1), 2), "runtimeMs": elapsed_ms,
               "stopReason": spec.stop_reason, "threads": threads, "threadFailures": 0,
               "overall": _stats(overall, sum(errors.values()), with_mean=True),
               "perOperation": {op: _stats(h, errors[op], with_mean=True) for op, h in totals.items()}}
    summary.update(spec.summary_extra)
    run = {"command": spec.command, "binding": {"name": spec.binding, "class": f"synthetic.{spec.binding}"},
           "workload": spec.workload, "status": "finished", "stopReason": spec.stop_reason,
           "threads": threads, "properties": {"threadcount": str(threads), **spec.properties},
           "versions": {"geoshard": "0.1.0-SNAPSHOT", "gitCommit": "abc123def456"},
           "host": {"name": "test", "cores": 2},
           "startTime": _iso(base), "endTime": _iso(base + elapsed_ms), "runtimeMs": elapsed_ms}
    if spec.label is not None:
        run["label"] = spec.label
    if spec.with_identity:
        # The scenario is what was asked for; "threadcount" above is what the run reached (a ramp's top).
        run["identity"] = identity(spec.command, spec.binding, spec.workload, spec.properties)
    (folder / "run.json").write_text(json.dumps(run, indent=2))
    (folder / "summary.json").write_text(json.dumps(summary, indent=2))
    return folder


# Properties that may differ between the clients of one scenario or between repetitions: not part of
# a run's identity (the contract in results/README.md).
_NOT_SCENARIO_PREFIXES = ("results.", "status.", "observe.", "trace.")
_NOT_SCENARIO_NAMES = ("seed", "insertstart", "insertcount", "clientthreads")
_NOT_SCENARIO_SUFFIXES = (".url", ".host", ".hosts", ".password", ".user")


def identity(command: str, binding: str, workload: str, properties: dict) -> dict:
    """run.json's ``identity`` as the harness writes it: the scenario properties sorted by name, and
    the hex SHA-256 of the canonical JSON of command, binding, workload and scenario."""
    scenario = {name: str(value) for name, value in sorted(properties.items())
                if not name.startswith(_NOT_SCENARIO_PREFIXES) and name not in _NOT_SCENARIO_NAMES
                and not name.endswith(_NOT_SCENARIO_SUFFIXES)}
    body = {"command": command, "binding": binding, "workload": workload, "scenario": scenario}
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return {**body, "key": hashlib.sha256(canonical.encode("utf-8")).hexdigest()}


def _iso(epoch_ms: int) -> str:
    from datetime import datetime, timezone
    return datetime.fromtimestamp(epoch_ms / 1000, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def sweep_summary(seconds: list, offered: list, step_seconds: int, group: str = "writers", threads: int = 2,
                  verdicts: list | None = None) -> dict:
    """summary.json's ``sweep`` for ``seconds`` cut into steps of ``step_seconds``, the way the
    harness writes it: per step the offered rate, totals and every operation's statistics with its
    throughput (count / step length). ``verdicts`` default to "pass"."""
    steps = []
    for index, rate in enumerate(offered):
        first = index * step_seconds + 1
        window = seconds[first - 1:first - 1 + step_seconds]
        length_s = sum(second.interval_ms for second in window) / 1000.0
        histograms, errors = {}, {}
        for second in window:
            for operation, sample in second.samples.items():
                if operation == "CLEANUP":
                    continue
                histograms.setdefault(operation, HdrHistogram(1, 3_600_000_000, 3)).add(sample.histogram())
                errors[operation] = errors.get(operation, 0) + sample.errors
        overall = HdrHistogram(1, 3_600_000_000, 3)
        for histogram in histograms.values():
            overall.add(histogram)
        totals = _stats(overall, sum(errors.values()))
        steps.append({
            "step": index + 1, "threads": threads, "offeredOpsPerSec": float(rate), "startSecond": first,
            "endSecond": first + len(window) - 1, "operations": totals["count"], "errors": totals["errors"],
            "timeouts": 0, "throughput": round(totals["count"] / length_s, 2),
            **{key: totals[key] for key in ("p50Us", "p95Us", "p98Us", "p99Us", "maxUs")},
            "withinLatencyPercent": 100.0, "verdict": (verdicts or [])[index] if verdicts else "pass",
            "perOperation": {op: {**_stats(h, errors[op], with_mean=True), "throughput": round(
                h.get_total_count() / length_s, 2)} for op, h in histograms.items()},
        })
    return {"group": group, "steps": steps}


def constant_seconds(count: int, operations: dict, threads: int = 1) -> list:
    """``count`` full seconds in which each operation measures the same ``Sample``."""
    return [Second(samples=dict(operations), threads=threads) for _ in range(count)]


# A plausible study, for end-to-end tests and for looking at the figures -----------------------

GEO_MIX = {"GEO_NEAR": (0.6, 1.0), "GEO_NEAR_FILTERED": (0.3, 1.5), "GEO_NEXT_PAGE": (0.1, 0.4)}


def _latency_sample(rng, mean_us: float, ops: int, sigma: float = 0.55) -> Sample:
    """``ops`` lognormal latencies around ``mean_us``, binned to 3 significant digits."""
    mu = math.log(mean_us) - sigma**2 / 2
    values = rng.lognormal(mu, sigma, size=ops)
    scale = 10.0 ** np.maximum(0, np.floor(np.log10(np.maximum(values, 1))) - 2)
    values = np.maximum(1, np.round(values / scale) * scale)
    unique, counts = np.unique(values.astype(np.int64), return_counts=True)
    return Sample(values=unique.tolist(), counts=counts.tolist())


def ramp_run(folder: Path, label: str, capacity: float, seed: int, service_ms: float = 8.0, start: int = 5,
             step: int = 5, step_seconds: int = 20, sla_ms: float = 100.0, max_steps: int = 30,
             binding: str = "mongodb-geo", warmup: int = 5, batch: int = 5, ops_scale: float = 1.0) -> Path:
    """A closed-loop ramp against a server of ``capacity`` ops/s, stopping at the first SLA breach;
    summary.json gets ramp steps, maxSustainedThroughput and plateau statistics like the harness's.
    ``ops_scale`` below 1 records fewer operations (faster to write, same latencies)."""
    rng = np.random.default_rng(seed)
    seconds, steps, noise = [], [], 0.0
    stop = "maxthreads"
    for number in range(1, max_steps + 1):
        threads = start + (number - 1) * step
        mean_ms = max(service_ms, threads / capacity * 1000.0)
        first = len(seconds) + 1
        step_hist, step_ops = HdrHistogram(1, 3_600_000_000, 3), 0
        for _ in range(step_seconds):
            noise = 0.7 * noise + rng.normal(0, 0.03)
            rate = threads / (mean_ms / 1000.0) * (1 + noise) * ops_scale
            samples = {}
            for operation, (share, factor) in GEO_MIX.items():
                sample = _latency_sample(rng, mean_ms * 1000 * factor, max(1, int(rate * share)))
                samples[operation] = sample
                step_hist.add(sample.histogram())
            step_ops += sum(sum(s.counts) for s in samples.values())
            seconds.append(Second(samples=samples, threads=threads))
        p98 = _percentiles(step_hist, {"p98": 98})["p98"]
        verdict = "pass" if p98 <= sla_ms * 1000 else "sla"
        steps.append({"step": number, "threads": threads, "offeredOpsPerSec": None, "startSecond": first,
                      "endSecond": len(seconds), "operations": step_ops, "errors": 0, "timeouts": 0,
                      "throughput": round(step_ops / step_seconds, 1),
                      **_percentiles(step_hist, {f"p{p}Us": p for p in (50, 95, 98, 99)}),
                      "maxUs": step_hist.get_max_value(), "verdict": verdict})
        if verdict != "pass":
            stop = "sla"
            break
    seconds[-1].samples["CLEANUP"] = Sample(values=[90, 120])
    passed = [s for s in steps if s["verdict"] == "pass"]
    peak = max(passed, key=lambda s: s["throughput"]) if passed else None
    summary_extra = {"ramp": {"mode": "threads", "sla": {"percentile": 98.0, "latencyMs": sla_ms,
                                                          "timeoutMs": 10000, "maxErrors": 0}, "steps": steps},
                     "maxSustainedThroughput": peak["throughput"] if peak else None,
                     "peakStep": peak["step"] if peak else None, "peakThreads": peak["threads"] if peak else None}
    if peak:
        lo, hi = peak["startSecond"] + warmup, peak["endSecond"]
        rates = [sum(sum(s.counts or [1] * len(s.values)) for op, s in sec.samples.items() if op != "CLEANUP")
                 for sec in seconds[lo - 1:hi]]
        result = batch_means(rates, batch)
        summary_extra["plateau"] = {"fromSecond": lo, "toSecond": hi, "seconds": hi - lo + 1,
                                    "meanOpsPerSec": result.mean, "minOpsPerSec": result.minimum,
                                    "maxOpsPerSec": result.maximum, "ci95Low": result.low, "ci95High": result.high,
                                    "batchSeconds": batch, "batches": result.batches}
    return write_run(folder, RunSpec(seconds=seconds, label=label, binding=binding, stop_reason=stop,
                                     summary_extra=summary_extra))


def fixed_run(folder: Path, label: str, capacity: float, threads: int, seconds: int, seed: int,
              binding: str = "postgis-geo", service_ms: float = 12.0, ops_scale: float = 1.0) -> Path:
    """An older-style run at fixed threads: no ramp and no plateau in summary.json."""
    rng = np.random.default_rng(seed)
    mean_ms = max(service_ms, threads / capacity * 1000.0)
    spec = []
    for _ in range(seconds):
        rate = threads / (mean_ms / 1000.0) * (1 + rng.normal(0, 0.04)) * ops_scale
        spec.append(Second(samples={op: _latency_sample(rng, mean_ms * 1000 * factor, max(1, int(rate * share)))
                                    for op, (share, factor) in GEO_MIX.items()}, threads=threads))
    return write_run(folder, RunSpec(seconds=spec, label=label, binding=binding, stop_reason="time"))


def realistic_study(root: Path, step_seconds: int = 20, ops_scale: float = 1.0) -> list[Path]:
    """0S, 2S, 3S (3S repeated twice) MongoDB ramps and one fixed-thread PostGIS run.
    Shorter steps and a smaller ``ops_scale`` make it quick enough for tests."""
    common = {"step_seconds": step_seconds, "ops_scale": ops_scale}
    return [
        ramp_run(root / "0S", "0S", capacity=1500, seed=1, **common),
        ramp_run(root / "2S", "2S", capacity=2600, seed=2, **common),
        ramp_run(root / "3S-a", "3S", capacity=3400, seed=3, **common),
        ramp_run(root / "3S-b", "3S", capacity=3300, seed=4, **common),
        fixed_run(root / "postgis", "PostGIS", capacity=1800, threads=40, seconds=6 * step_seconds, seed=5,
                  ops_scale=ops_scale),
    ]


LOCATION_PROPERTIES = {"ll.users": "9000000", "ll.history.peruser": "1", "ll.writers": "8"}


def sweep_run(folder: Path, label: str, query_capacity: float, insert_capacity: float, seed: int,
              rates=(0, 400, 1000, 3000, 4000), step_seconds: int = 20, readers: int = 8, writers: int = 8,
              sla_ms: float = 100.0, binding: str = "postgis-geo", ops_scale: float = 1.0) -> Path:
    """A location-workload sweep: ``readers`` query in a closed loop while the writers' offered
    insert rate steps through ``rates``. The server shares itself: inserts take up to
    ``insert_capacity`` events/s and leave the queries what remains of ``query_capacity``."""
    rng = np.random.default_rng(seed)
    seconds, verdicts = [], []
    for rate in rates:
        achieved = min(float(rate), 0.97 * insert_capacity)
        load = achieved / insert_capacity
        queries = query_capacity * max(0.02, 1 - load) ** 1.3
        query_ms = readers / queries * 1000.0
        insert_ms = 1.5 / max(0.03, 1 - load)
        step = HdrHistogram(1, 3_600_000_000, 3)
        for _ in range(step_seconds):
            factor = 1 + rng.normal(0, 0.03)
            samples = {"LKL_READ": _latency_sample(rng, 0.8 * query_ms * 1000, max(1, int(0.9 * queries
                                                                                          * factor * ops_scale))),
                       "HISTORY_RANGE": _latency_sample(rng, 2.8 * query_ms * 1000,
                                                        max(1, int(0.1 * queries * factor * ops_scale)))}
            inserts = int(achieved * min(1.0, factor) * ops_scale)  # open loop: never above the offered rate
            if inserts:
                stale = max(1, inserts // 100)
                samples["HISTORY_INSERT"] = _latency_sample(rng, insert_ms * 1000, inserts)
                samples["LKL_UPSERT"] = _latency_sample(rng, 1.4 * insert_ms * 1000, inserts - stale)
                samples["LKL_STALE"] = _latency_sample(rng, 1.4 * insert_ms * 1000, stale)
            for sample in samples.values():
                step.add(sample.histogram())
            seconds.append(Second(samples=samples, threads=readers + writers))
        verdicts.append("pass" if _percentiles(step, {"p98": 98})["p98"] <= sla_ms * 1000 else "sla")
    seconds[-1].samples["CLEANUP"] = Sample(values=[90, 120])
    sweep = sweep_summary(seconds, list(rates), step_seconds, threads=writers, verdicts=verdicts)
    properties = dict(LOCATION_PROPERTIES, **{"ll.sweep.rates": ",".join(f"{r:g}" for r in rates)})
    return write_run(folder, RunSpec(seconds=seconds, label=label, binding=binding, stop_reason="completed",
                                     summary_extra={"sweep": sweep}, properties=properties,
                                     workload="org.geoshard.lastlocation.LastLocationWorkload"))


def sweep_study(root: Path, step_seconds: int = 20, ops_scale: float = 1.0) -> list[Path]:
    """The pilot's table for two bindings: MongoDB and PostGIS (PostGIS repeated twice)."""
    common = {"step_seconds": step_seconds, "ops_scale": ops_scale}
    return [
        sweep_run(root / "mongodb", "MongoDB", query_capacity=9000, insert_capacity=7000, seed=11,
                  binding="mongodb-geo", **common),
        sweep_run(root / "postgis-a", "PostGIS", query_capacity=3800, insert_capacity=4200, seed=12, **common),
        sweep_run(root / "postgis-b", "PostGIS", query_capacity=3700, insert_capacity=4100, seed=13, **common),
    ]


if __name__ == "__main__":  # python -m tests.synthetic OUT_DIR [--sweep]: writes a study for a look
    import sys

    study = sweep_study if "--sweep" in sys.argv[2:] else realistic_study
    for path in study(Path(sys.argv[1])):
        print(path)
