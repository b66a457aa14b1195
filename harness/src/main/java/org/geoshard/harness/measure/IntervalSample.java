package org.geoshard.harness.measure;

import org.HdrHistogram.Histogram;

/**
 * One operation's latencies (microseconds) and error count over one interval. The histogram holds
 * every operation that ended in the interval, failed ones included; {@link #ok()} is what succeeded.
 */
public record IntervalSample(String operation, Histogram histogram, long errors) {
  public long count() {
    return histogram.getTotalCount();
  }

  /**
   * Operations that succeeded. An error is counted a moment after its latency is recorded, so at an
   * interval's edge the two may fall into neighbouring intervals: never below zero.
   */
  public long ok() {
    return Math.max(0, histogram.getTotalCount() - errors);
  }

  public boolean isEmpty() {
    return histogram.getTotalCount() == 0 && errors == 0;
  }
}
