package org.geoshard.harness.measure;

import org.HdrHistogram.Histogram;

/**
 * One operation's latencies (microseconds) over one interval: those of the operations that
 * succeeded in {@code histogram}, those that failed apart in {@code failed}, and the count of
 * failures. Measured here, {@code errors} is {@code failed}'s count; a run folder written before
 * failures were kept apart has every latency in {@code histogram}, no failed latencies and its
 * errors from {@code timeseries.csv}: the counts below hold for both.
 */
public record IntervalSample(String operation, Histogram histogram, Histogram failed, long errors) {

  /** A measured interval: the errors are the failures' histogram's count. */
  public static IntervalSample of(String operation, Histogram succeeded, Histogram failed) {
    return new IntervalSample(operation, succeeded, failed, failed.getTotalCount());
  }

  /** Every operation that ended in the interval, failed ones included. */
  public long count() {
    return histogram.getTotalCount() + failed.getTotalCount();
  }

  /** Operations that succeeded. */
  public long ok() {
    return Math.max(0, count() - errors);
  }

  public boolean isEmpty() {
    return count() == 0 && errors == 0;
  }
}
