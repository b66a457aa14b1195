package org.geoshard.harness.measure;

import org.HdrHistogram.Histogram;

/** One operation's latencies (microseconds) and error count over one interval. */
public record IntervalSample(String operation, Histogram histogram, long errors) {
  public long count() {
    return histogram.getTotalCount();
  }

  public boolean isEmpty() {
    return histogram.getTotalCount() == 0 && errors == 0;
  }
}
