package org.geoshard.harness.ramp;

import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The latency rule of the max-throughput search, judged on one window's histograms: at least
 * {@code percentile}% of the requests finish within {@code latencyUs}, none takes longer than
 * {@code timeoutUs}, there are at most {@code maxErrors} errors, and at least one request succeeded
 * (a window in which none did measured nothing: it never passes). With {@code perOperation} every
 * operation must meet the latency share on its own too.
 *
 * <p>With {@link Kind#STATED} (the default) the share is counted from the histogram
 * ({@code count(value <= limit) / total}), in microseconds, so that "98% under 100 ms" means exactly
 * that. {@link Kind#STUDY_CODE} is the rule as the study's client ran it, for reproducing its runs: it
 * compared the whole seconds of each latency with the limit in seconds ({@code latency.seconds > 0.1}),
 * so a request counted as slow only from the next whole second above the limit (from 1 s for 100 ms).
 */
public record SlaRule(double percentile, long latencyUs, long timeoutUs, long maxErrors, boolean perOperation,
                      Kind kind) {

  /** Which latency comparison decides the share within the limit ({@code sla.rule}). */
  public enum Kind {
    /** The rule as the paper states it: the latency in microseconds at or under the limit. */
    STATED,
    /** The rule as the study's code ran it: the latency's whole seconds not above the limit in seconds. */
    STUDY_CODE
  }

  public SlaRule {
    if (kind == null) {
      throw new IllegalArgumentException("an SLA rule needs its kind");
    }
  }

  /** The stated rule. */
  public SlaRule(double percentile, long latencyUs, long timeoutUs, long maxErrors, boolean perOperation) {
    this(percentile, latencyUs, timeoutUs, maxErrors, perOperation, Kind.STATED);
  }

  /**
   * The largest latency (µs) that counts as within the limit. Stated: the limit itself. Study code:
   * just under the next whole second above the limit, since {@code timedelta.seconds > limit} holds
   * from there (100 ms and 999 ms: 999,999 µs; 1.5 s: 1,999,999 µs).
   */
  public long effectiveLimitUs() {
    if (kind == Kind.STATED) {
      return latencyUs;
    }
    return (latencyUs / 1_000_000 + 1) * 1_000_000 - 1;
  }

  public Verdict verdict(Histogram overall, Map<String, Histogram> perOperationHistograms, long errors) {
    if (timeouts(overall) > 0) {
      return Verdict.TIMEOUT;
    }
    if (errors > maxErrors) {
      return Verdict.ERRORS;
    }
    if (overall.getTotalCount() == 0) {
      return Verdict.NOTHING;  // an empty histogram is "100% within the limit": not a pass
    }
    if (!withinLatency(overall)) {
      return Verdict.SLA;
    }
    if (perOperation) {
      for (Histogram histogram : perOperationHistograms.values()) {
        if (!withinLatency(histogram)) {
          return Verdict.SLA;
        }
      }
    }
    return Verdict.PASS;
  }

  /** Requests slower than the timeout. */
  public long timeouts(Histogram histogram) {
    if (histogram.getTotalCount() == 0 || histogram.getMaxValue() <= timeoutUs) {
      return 0;
    }
    return histogram.getTotalCount() - histogram.getCountBetweenValues(0, timeoutUs);
  }

  /** The share (0 to 100) of requests that finished within the latency limit. */
  public double shareWithinLatency(Histogram histogram) {
    if (histogram.getTotalCount() == 0) {
      return 100;
    }
    return 100.0 * histogram.getCountBetweenValues(0, effectiveLimitUs()) / histogram.getTotalCount();
  }

  private boolean withinLatency(Histogram histogram) {
    return shareWithinLatency(histogram) >= percentile;
  }
}
