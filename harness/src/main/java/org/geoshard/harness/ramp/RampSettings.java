package org.geoshard.harness.ramp;

import java.time.Duration;
import java.util.Properties;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.config.PropertyReader;

/**
 * The max-throughput search's properties ({@code ramp.*}, {@code sla.*}, {@code stats.warmup}),
 * with the study's numbers as defaults: 5 threads more every 30 s until fewer than 98% of the
 * requests of a step finish within 100 ms.
 */
public record RampSettings(RampMode mode, int startThreads, int stepThreads, Duration interval, int maxThreads,
                           double startRate, double stepRate, double maxRate, int rateThreads, SlaRule rule,
                           Duration warmup) {

  public static final String MODE = "ramp.mode";
  public static final String START = "ramp.start";
  public static final String STEP = "ramp.step";
  public static final String INTERVAL = "ramp.interval";
  public static final String MAX_THREADS = "ramp.maxthreads";
  public static final String RATE_START = "ramp.rate.start";
  public static final String RATE_STEP = "ramp.rate.step";
  public static final String RATE_MAX = "ramp.rate.max";
  public static final String RATE_THREADS = "ramp.rate.threads";
  public static final String SLA_PERCENTILE = "sla.percentile";
  public static final String SLA_LATENCY_MS = "sla.latency.ms";
  public static final String SLA_TIMEOUT_MS = "sla.timeout.ms";
  public static final String SLA_MAX_ERRORS = "sla.maxerrors";
  public static final String SLA_PER_OPERATION = "sla.peroperation";
  public static final String STATS_WARMUP = "stats.warmup";

  public static RampSettings fromProperties(Properties properties) throws ConfigException {
    PropertyReader in = new PropertyReader(properties);
    RampMode mode = in.choice(MODE, RampMode.NONE, RampMode.class);
    int start = in.intInRange(START, 5, 1, 100_000);
    int step = in.intInRange(STEP, 5, 1, 100_000);
    Duration interval = in.seconds(INTERVAL, Duration.ofSeconds(30), 1);
    int maxThreads = in.intInRange(MAX_THREADS, 500, 1, 100_000);
    double rateStart = in.doubleInRange(RATE_START, 100, 0.001, 1e9);
    double rateStep = in.doubleInRange(RATE_STEP, 100, 0.001, 1e9);
    double rateMax = in.doubleInRange(RATE_MAX, 0, 0, 1e12);
    int rateThreads = in.intInRange(RATE_THREADS, 64, 1, 100_000);
    double percentile = in.doubleInRange(SLA_PERCENTILE, 98, 0.001, 100);
    long latencyMs = in.longAtLeast(SLA_LATENCY_MS, 100, 1);
    long timeoutMs = in.longAtLeast(SLA_TIMEOUT_MS, 10_000, 1);
    long maxErrors = in.longAtLeast(SLA_MAX_ERRORS, 0, 0);
    boolean perOperation = in.bool(SLA_PER_OPERATION, false);
    Duration warmup = in.seconds(STATS_WARMUP, Duration.ofSeconds(5), 0);
    if (mode == RampMode.THREADS && start > maxThreads) {
      in.problem("Property '" + START + "' (" + start + ") must not exceed '" + MAX_THREADS + "' (" + maxThreads + ").");
    }
    if (timeoutMs < latencyMs) {
      in.problem("Property '" + SLA_TIMEOUT_MS + "' (" + timeoutMs + ") must not be below '" + SLA_LATENCY_MS + "' ("
          + latencyMs + ").");
    }
    if (mode != RampMode.NONE && warmup.compareTo(interval) >= 0) {
      in.problem("Property '" + STATS_WARMUP + "' (" + warmup.toSeconds() + " s) must be shorter than '" + INTERVAL + "' ("
          + interval.toSeconds() + " s): it is cut from the peak step's window.");
    }
    in.throwIfProblems();
    SlaRule rule = new SlaRule(percentile, latencyMs * 1000, timeoutMs * 1000, maxErrors, perOperation);
    return new RampSettings(mode, start, step, interval, maxThreads, rateStart, rateStep, rateMax, rateThreads, rule,
        warmup);
  }

  /** No ramp: the defaults with mode NONE. */
  public static RampSettings none() {
    try {
      return fromProperties(new Properties());
    } catch (ConfigException e) {
      throw new IllegalStateException("the ramp defaults are inconsistent", e);
    }
  }

  /** Threads at the start of the run. */
  public int initialThreads(int fixedThreads) {
    return switch (mode) {
      case NONE -> fixedThreads;
      case THREADS -> startThreads;
      case RATE -> rateThreads;
    };
  }
}
