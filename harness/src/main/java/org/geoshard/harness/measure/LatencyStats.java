package org.geoshard.harness.measure;

import org.HdrHistogram.AbstractHistogram;

/**
 * The usual summary of a latency histogram, in microseconds.
 */
public record LatencyStats(long count, long errors, double meanUs, long minUs, long p50Us, long p95Us, long p98Us,
                           long p99Us, long p999Us, long maxUs) {

  public static LatencyStats of(AbstractHistogram histogram, long errors) {
    if (histogram.getTotalCount() == 0) {
      return new LatencyStats(0, errors, 0, 0, 0, 0, 0, 0, 0, 0);
    }
    return new LatencyStats(histogram.getTotalCount(), errors, histogram.getMean(), histogram.getMinValue(),
        histogram.getValueAtPercentile(50), histogram.getValueAtPercentile(95), histogram.getValueAtPercentile(98),
        histogram.getValueAtPercentile(99), histogram.getValueAtPercentile(99.9), histogram.getMaxValue());
  }
}
