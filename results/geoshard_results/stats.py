"""Small statistics: Student's t confidence intervals and batch means (no SciPy needed)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

# Two-sided 95% critical values of Student's t for 1..30 degrees of freedom.
_T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
        2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]
_Z975 = 1.959964


def t95(degrees_of_freedom: int) -> float:
    """Two-sided 95% critical value of Student's t (table to 30, Cornish-Fisher expansion beyond)."""
    if degrees_of_freedom < 1:
        raise ValueError("at least one degree of freedom is needed")
    if degrees_of_freedom <= len(_T95):
        return _T95[degrees_of_freedom - 1]
    z, n = _Z975, float(degrees_of_freedom)
    return z + (z**3 + z) / (4 * n) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * n**2)


@dataclass(frozen=True)
class Interval:
    mean: float
    low: float
    high: float
    n: int


def mean_ci95(values) -> Interval:
    """Mean and 95% t interval of independent values; the interval is NaN for fewer than two."""
    data = np.asarray([v for v in values if v is not None and not math.isnan(v)], dtype=float)
    if data.size == 0:
        return Interval(math.nan, math.nan, math.nan, 0)
    mean = float(data.mean())
    if data.size < 2:
        return Interval(mean, math.nan, math.nan, int(data.size))
    half = t95(data.size - 1) * float(data.std(ddof=1)) / math.sqrt(data.size)
    return Interval(mean, mean - half, mean + half, int(data.size))


@dataclass(frozen=True)
class BatchMeans:
    mean: float
    minimum: float
    maximum: float
    low: float
    high: float
    batches: int
    batch_length: int


def batch_means(series, batch_length: int) -> BatchMeans:
    """Mean, min and max of a per-second series and a 95% CI by non-overlapping batch means.

    The mean, min and max use every value; the interval uses the complete batches only (a partial
    last batch is dropped), treating batch means as independent.
    """
    data = np.asarray(series, dtype=float)
    if data.size == 0:
        return BatchMeans(*(math.nan,) * 5, 0, batch_length)
    batches = data.size // batch_length if batch_length > 0 else 0
    interval = mean_ci95(data[: batches * batch_length].reshape(batches, batch_length).mean(axis=1)) \
        if batches else Interval(math.nan, math.nan, math.nan, 0)
    return BatchMeans(float(data.mean()), float(data.min()), float(data.max()), interval.low, interval.high,
                      batches, batch_length)
