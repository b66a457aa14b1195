package org.geoshard.harness.ramp;

import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.geoshard.harness.measure.Interval;
import org.geoshard.harness.measure.IntervalSample;
import org.geoshard.harness.measure.LatencyStats;
import org.geoshard.harness.measure.OperationMeter;
import org.geoshard.harness.measure.Totals;

/**
 * The intervals of one ramp step, added up: all operations but CLEANUP, and each on its own. The
 * latency rule and the percentiles judge the successful operations; failures are counted as errors,
 * and a failure slower than the timeout is a timeout all the same.
 */
public final class Window {
  private final Histogram overall = OperationMeter.newHistogram();
  private final Histogram overallFailed = OperationMeter.newHistogram();
  private final Map<String, Histogram> perOperation = new LinkedHashMap<>();
  private final Map<String, Histogram> failedByOperation = new LinkedHashMap<>();
  private final Map<String, Long> errorsByOperation = new LinkedHashMap<>();
  private long errors;
  private long firstIndex = -1;
  private long lastIndex;
  private long durationMs;
  private int intervals;

  public void add(Interval interval) {
    if (firstIndex < 0) {
      firstIndex = interval.index();
    }
    lastIndex = interval.index();
    durationMs += interval.durationMs();
    intervals++;
    for (IntervalSample sample : interval.samples()) {
      if (Totals.CLEANUP.equals(sample.operation())) {
        continue;
      }
      overall.add(sample.histogram());
      overallFailed.add(sample.failed());
      perOperation.computeIfAbsent(sample.operation(), name -> OperationMeter.newHistogram()).add(sample.histogram());
      failedByOperation.computeIfAbsent(sample.operation(), name -> OperationMeter.newHistogram()).add(sample.failed());
      errors += sample.errors();
      errorsByOperation.merge(sample.operation(), sample.errors(), Long::sum);
    }
  }

  public int intervals() {
    return intervals;
  }

  public boolean isEmpty() {
    return intervals == 0;
  }

  /** The verdict of the rule, or PARTIAL when {@code complete} is false. */
  public StepRecord close(int step, int threads, Double offeredRate, SlaRule rule, boolean complete) {
    long failedTimeouts = rule.timeouts(overallFailed);  // a request slower than the timeout is one, failed or not
    Verdict verdict = !complete ? Verdict.PARTIAL
        : failedTimeouts > 0 ? Verdict.TIMEOUT : rule.verdict(overall, perOperation, errors);
    double seconds = Math.max(1, durationMs) / 1000.0;
    boolean any = overall.getTotalCount() > 0;
    Map<String, LatencyStats> operations = new LinkedHashMap<>();
    perOperation.forEach((name, h) -> operations.put(name, LatencyStats.of(h, failedByOperation.get(name),
        errorsByOperation.getOrDefault(name, 0L))));
    // Throughput counts what succeeded; the errors stand beside it and the rule judges them.
    long count = overall.getTotalCount() + overallFailed.getTotalCount();
    long succeeded = Math.max(0, count - errors);
    return new StepRecord(step, threads, offeredRate, firstIndex, lastIndex, count, errors,
        rule.timeouts(overall) + failedTimeouts, succeeded / seconds,
        any ? overall.getValueAtPercentile(50) : 0, any ? overall.getValueAtPercentile(95) : 0,
        any ? overall.getValueAtPercentile(98) : 0, any ? overall.getValueAtPercentile(99) : 0,
        any ? overall.getMaxValue() : 0, rule.shareWithinLatency(overall), verdict, Math.max(1, durationMs), operations);
  }
}
