package org.geoshard.harness.measure;

import org.HdrHistogram.AbstractHistogram;

/**
 * The usual summary of an operation's latencies, in microseconds. {@code count} is every operation
 * that ended, {@code errors} those that failed; the latencies are those of the successful ones, and
 * {@code failed} summarises the failed ones' own latencies (null when none failed or their latencies
 * are unknown).
 */
public record LatencyStats(long count, long errors, double meanUs, long minUs, long p50Us, long p95Us, long p98Us,
                           long p99Us, long p999Us, long maxUs, LatencyStats failed) {

  /** Successes and failures apart, as measured. */
  public static LatencyStats of(AbstractHistogram succeeded, AbstractHistogram failed, long errors) {
    LatencyStats failures = failed.getTotalCount() == 0 ? null : of(failed, failed.getTotalCount());
    long count = succeeded.getTotalCount() + failed.getTotalCount();
    if (succeeded.getTotalCount() == 0) {
      return new LatencyStats(count, errors, 0, 0, 0, 0, 0, 0, 0, 0, failures);
    }
    return new LatencyStats(count, errors, succeeded.getMean(), succeeded.getMinValue(),
        succeeded.getValueAtPercentile(50), succeeded.getValueAtPercentile(95), succeeded.getValueAtPercentile(98),
        succeeded.getValueAtPercentile(99), succeeded.getValueAtPercentile(99.9), succeeded.getMaxValue(), failures);
  }

  /** One histogram holding every operation counted ({@code errors} of them failed). */
  public static LatencyStats of(AbstractHistogram histogram, long errors) {
    if (histogram.getTotalCount() == 0) {
      return new LatencyStats(0, errors, 0, 0, 0, 0, 0, 0, 0, 0, null);
    }
    return new LatencyStats(histogram.getTotalCount(), errors, histogram.getMean(), histogram.getMinValue(),
        histogram.getValueAtPercentile(50), histogram.getValueAtPercentile(95), histogram.getValueAtPercentile(98),
        histogram.getValueAtPercentile(99), histogram.getValueAtPercentile(99.9), histogram.getMaxValue(), null);
  }
}
