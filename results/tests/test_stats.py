"""t intervals and batch means."""

import math

import numpy as np
import pytest

from geoshard_results import stats


def test_t_critical_values():
    assert stats.t95(1) == 12.706
    assert stats.t95(30) == 2.042
    assert stats.t95(60) == pytest.approx(2.000, abs=1e-3)
    assert stats.t95(120) == pytest.approx(1.980, abs=1e-3)
    assert stats.t95(10**6) == pytest.approx(1.960, abs=1e-3)


def test_mean_ci95_of_two_values():
    interval = stats.mean_ci95([100.0, 200.0])
    half = 12.706 * math.sqrt(5000) / math.sqrt(2)  # t(1) * s / sqrt(n)
    assert interval.mean == 150.0
    assert interval.low == pytest.approx(150 - half)
    assert interval.high == pytest.approx(150 + half)


def test_mean_ci95_ignores_missing_values_and_needs_two():
    interval = stats.mean_ci95([42.0, float("nan"), None])
    assert interval.mean == 42.0 and interval.n == 1 and math.isnan(interval.low)


def test_batch_means_by_hand():
    result = stats.batch_means(list(range(1, 12)), 5)  # batches 1..5 and 6..10; 11 left over
    half = 12.706 * math.sqrt(12.5) / math.sqrt(2)
    assert (result.mean, result.minimum, result.maximum, result.batches) == (6.0, 1.0, 11.0, 2)
    assert result.low == pytest.approx(5.5 - half)
    assert result.high == pytest.approx(5.5 + half)


def test_batch_means_cover_the_mean_of_an_autocorrelated_series():
    rng = np.random.default_rng(7)
    covered = 0
    for _ in range(200):
        noise = np.zeros(600)
        for i in range(1, 600):
            noise[i] = 0.8 * noise[i - 1] + rng.normal()
        result = stats.batch_means(1000 + noise, 60)
        covered += result.low <= 1000 <= result.high
    assert covered >= 180  # nominal 95%: at least 90% of 200 intervals hold the true mean
