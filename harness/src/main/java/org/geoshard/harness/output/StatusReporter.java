package org.geoshard.harness.output;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.geoshard.harness.measure.Interval;
import org.geoshard.harness.measure.IntervalListener;
import org.geoshard.harness.measure.IntervalSample;
import org.geoshard.harness.measure.OperationMeter;
import org.geoshard.harness.measure.Totals;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs a status line every {@code status.interval}: elapsed time, total operations, the rate of
 * successful operations over the last period, threads, errors, how far the phase is ({@link Progress}:
 * share done and time left, or the step), and per operation the count and p50/p95/p99 of the last period's successful operations.
 */
public final class StatusReporter implements IntervalListener {
  private static final Logger LOG = LoggerFactory.getLogger("status");

  private final long everyMs;
  private final long startEpochMs;
  private final Map<String, Histogram> period = new LinkedHashMap<>();
  private long periodStartMs;
  private long periodOps;
  private long periodErrors;
  private long totalOps;
  private long totalErrors;
  private long nextReportMs;
  private final Progress progress;

  public StatusReporter(Duration every, long startEpochMs) {
    this(every, startEpochMs, Progress.none());
  }

  public StatusReporter(Duration every, long startEpochMs, Progress progress) {
    this.progress = progress;
    this.everyMs = every.toMillis();
    this.startEpochMs = startEpochMs;
    this.periodStartMs = startEpochMs;
    this.nextReportMs = startEpochMs + everyMs;
  }

  @Override
  public void onInterval(Interval interval) {
    for (IntervalSample sample : interval.samples()) {
      period.computeIfAbsent(sample.operation(), name -> OperationMeter.newHistogram()).add(sample.histogram());
      if (!Totals.CLEANUP.equals(sample.operation())) {
        periodOps += sample.count();
        periodErrors += sample.errors();
      }
    }
    // Allow a few milliseconds of scheduling jitter so that 10 one-second intervals make 10 s.
    if (interval.endEpochMs() + 50 >= nextReportMs) {
      LOG.info(line(interval.endEpochMs(), interval.threads()));
      nextReportMs += everyMs;
      totalOps += periodOps;
      totalErrors += periodErrors;
      period.values().forEach(Histogram::reset);
      periodOps = 0;
      periodErrors = 0;
      periodStartMs = interval.endEpochMs();
    }
  }

  String line(long nowMs, int threads) {
    double seconds = Math.max(1, nowMs - periodStartMs) / 1000.0;
    StringBuilder line = new StringBuilder()
        .append(Math.round((nowMs - startEpochMs) / 1000.0)).append(" sec: ")
        .append(Formats.grouped(totalOps + periodOps)).append(" operations; ")
        .append(Formats.decimal(Math.max(0, periodOps - periodErrors) / seconds, 1)).append(" current ops/sec; ")
        .append(threads).append(" threads; ")
        .append(totalErrors + periodErrors).append(" errors");
    String howFar = progress.describe(totalOps + periodOps, nowMs - startEpochMs);
    if (howFar != null) {
      line.append("; ").append(howFar);
    }
    period.forEach((name, histogram) -> {
      if (histogram.getTotalCount() > 0) {
        line.append(" [").append(name).append(": count=").append(histogram.getTotalCount())
            .append(", p50=").append(histogram.getValueAtPercentile(50))
            .append(", p95=").append(histogram.getValueAtPercentile(95))
            .append(", p99=").append(histogram.getValueAtPercentile(99)).append(" us]");
      }
    });
    return line.toString();
  }
}
