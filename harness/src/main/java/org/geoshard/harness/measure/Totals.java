package org.geoshard.harness.measure;

import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Adds up every interval into histograms of successes and of failures and an error count per
 * operation, and over all operations. {@value #CLEANUP} (a binding's final flush) is reported per
 * operation but is not an operation of the workload, so it stays out of the overall count and the
 * throughput.
 */
public final class Totals implements IntervalListener {
  public static final String CLEANUP = "CLEANUP";

  private final Map<String, Histogram> histograms = new LinkedHashMap<>();
  private final Map<String, Histogram> failed = new LinkedHashMap<>();
  private final Map<String, Long> errors = new LinkedHashMap<>();
  private final Histogram overall = OperationMeter.newHistogram();
  private final Histogram overallFailed = OperationMeter.newHistogram();
  private long overallErrors;

  @Override
  public synchronized void onInterval(Interval interval) {
    for (IntervalSample sample : interval.samples()) {
      histograms.computeIfAbsent(sample.operation(), name -> OperationMeter.newHistogram()).add(sample.histogram());
      failed.computeIfAbsent(sample.operation(), name -> OperationMeter.newHistogram()).add(sample.failed());
      errors.merge(sample.operation(), sample.errors(), Long::sum);
      if (!CLEANUP.equals(sample.operation())) {
        overall.add(sample.histogram());
        overallFailed.add(sample.failed());
        overallErrors += sample.errors();
      }
    }
  }

  /** Per operation, in order of first appearance. */
  public synchronized Map<String, LatencyStats> perOperation() {
    Map<String, LatencyStats> out = new LinkedHashMap<>();
    histograms.forEach((name, histogram) -> out.put(name, LatencyStats.of(histogram, failed.get(name), errors.get(name))));
    return out;
  }

  public synchronized LatencyStats overall() {
    return LatencyStats.of(overall, overallFailed, overallErrors);
  }

  public synchronized long operations() {
    return overall.getTotalCount() + overallFailed.getTotalCount();
  }

  public synchronized long errors() {
    return overallErrors;
  }

  /** Operations that succeeded (all but CLEANUP): what every throughput figure counts. */
  public synchronized long succeeded() {
    return Math.max(0, operations() - overallErrors);
  }
}
