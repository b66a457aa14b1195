package org.geoshard.harness.ramp;

import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The latency rule of the max-throughput search, judged on one window's histograms: at least
 * {@code percentile}% of the requests finish within {@code latencyUs}, none takes longer than
 * {@code timeoutUs}, and there are at most {@code maxErrors} errors. With {@code perOperation} every
 * operation must meet the latency share on its own too.
 *
 * <p>The share is counted from the histogram ({@code count(value <= limit) / total}), in microseconds,
 * so that "98% under 100 ms" means exactly that (the study compared whole seconds).
 */
public record SlaRule(double percentile, long latencyUs, long timeoutUs, long maxErrors, boolean perOperation) {

  public Verdict verdict(Histogram overall, Map<String, Histogram> perOperationHistograms, long errors) {
    if (timeouts(overall) > 0) {
      return Verdict.TIMEOUT;
    }
    if (errors > maxErrors) {
      return Verdict.ERRORS;
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
    return 100.0 * histogram.getCountBetweenValues(0, latencyUs) / histogram.getTotalCount();
  }

  private boolean withinLatency(Histogram histogram) {
    return shareWithinLatency(histogram) >= percentile;
  }
}
