package org.geoshard.harness.ramp;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.config.PropertyReader;

/**
 * The max-throughput search's properties ({@code ramp.*}, {@code sla.*}, {@code stats.warmup}),
 * with the study's numbers as defaults: 5 threads more every 30 s until fewer than 98% of the
 * requests of a step finish within 100 ms.
 *
 * <p>A search property is never silently ignored: without {@code ramp.mode}, {@code ramp.start},
 * {@code ramp.step}, {@code ramp.interval} or {@code ramp.maxthreads} imply the study's thread ramp and
 * {@code ramp.rate.*} the open-loop one (both groups at once are refused); {@code note} says so, and
 * says which properties {@code ramp.mode=none} leaves unused. The default warm-up is at most half a
 * step (or half of {@code maxexecutiontime} without a ramp), so that short searches need no extra
 * property.
 *
 * @param note a sentence to log at the start about the mode, or null
 */
public record RampSettings(RampMode mode, int startThreads, int stepThreads, Duration interval, int maxThreads,
                           double startRate, double stepRate, double maxRate, int rateThreads, SlaRule rule,
                           Duration warmup, boolean warmupGiven, String note) {

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
  /** {@code stated} (the default) or {@code study-code}: see {@link SlaRule.Kind}. */
  public static final String SLA_RULE = "sla.rule";
  public static final String STATS_WARMUP = "stats.warmup";
  /** The warm-up when the user sets none and neither a step nor the run is short. */
  public static final Duration DEFAULT_WARMUP = Duration.ofSeconds(5);

  private static final List<String> THREAD_RAMP = List.of(START, STEP, INTERVAL, MAX_THREADS);
  private static final List<String> RATE_RAMP = List.of(RATE_START, RATE_STEP, RATE_MAX, RATE_THREADS);

  /** {@link #fromProperties(Properties, Duration)} for a run of unknown length. */
  public static RampSettings fromProperties(Properties properties) throws ConfigException {
    return fromProperties(properties, Duration.ZERO);
  }

  /**
   * @param runLength {@code maxexecutiontime}, or zero when the run's length is not known in advance
   */
  public static RampSettings fromProperties(Properties properties, Duration runLength) throws ConfigException {
    PropertyReader in = new PropertyReader(properties);
    List<String> threadRamp = THREAD_RAMP.stream().filter(name -> in.raw(name) != null).toList();
    List<String> rateRamp = RATE_RAMP.stream().filter(name -> in.raw(name) != null).toList();
    RampMode mode = in.choice(MODE, RampMode.NONE, RampMode.class);
    String note = null;
    if (in.raw(MODE) == null && !rateRamp.isEmpty() && threadRamp.stream().anyMatch(name -> !name.equals(INTERVAL))) {
      in.problem("Properties " + String.join(", ", threadRamp) + " (a thread ramp) and " + String.join(", ", rateRamp)
          + " (a rate ramp) are set but '" + MODE + "' is not: set " + MODE + "=threads or " + MODE + "=rate.");
    } else if (in.raw(MODE) == null && !rateRamp.isEmpty()) {
      mode = RampMode.RATE;
      note = String.join(", ", rateRamp) + " set without " + MODE + ": running the open-loop rate ramp ("
          + MODE + "=rate).";
    } else if (in.raw(MODE) == null && !threadRamp.isEmpty()) {
      mode = RampMode.THREADS;
      note = String.join(", ", threadRamp) + " set without " + MODE + ": running the study's thread ramp ("
          + MODE + "=threads).";
    } else if (mode == RampMode.THREADS && !rateRamp.isEmpty()) {
      // Obeyed, as ramp.mode=none is (a scenario file may set one kind and the command line choose the other),
      // but never silently.
      note = unusedByMode(rateRamp, "threads", "rate");
    } else if (mode == RampMode.RATE && threadRamp.stream().anyMatch(name -> !name.equals(INTERVAL))) {
      // ramp.interval is the step length of both kinds
      note = unusedByMode(threadRamp.stream().filter(name -> !name.equals(INTERVAL)).toList(), "rate", "threads");
    } else if (mode == RampMode.NONE && (!threadRamp.isEmpty() || !rateRamp.isEmpty())) {
      note = MODE + "=none: " + String.join(", ", Stream.concat(threadRamp.stream(), rateRamp.stream()).toList())
          + " not used; this is a run with a fixed number of threads.";
    }
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
    SlaRule.Kind kind = in.choice(SLA_RULE, SlaRule.Kind.STATED, SlaRule.Kind.class);
    boolean warmupSet = in.raw(STATS_WARMUP) != null;
    Duration warmup = in.seconds(STATS_WARMUP, DEFAULT_WARMUP, 0);
    if (!warmupSet) {
      warmup = defaultWarmup(mode != RampMode.NONE ? interval : runLength);
    }
    // A check of two values quotes each as the user gave it, or says it is the default; a refused value
    // (already said, its default standing in) is not checked again: its stand-in would be quoted as given.
    if (mode == RampMode.THREADS && start > maxThreads && !in.refused(START) && !in.refused(MAX_THREADS)) {
      in.problem("Property '" + START + "' (" + in.quoted(START, start) + ") must not exceed '" + MAX_THREADS + "' ("
          + in.quoted(MAX_THREADS, maxThreads) + ").");
    }
    if (timeoutMs < latencyMs && !in.refused(SLA_TIMEOUT_MS) && !in.refused(SLA_LATENCY_MS)) {
      in.problem("Property '" + SLA_TIMEOUT_MS + "' (" + in.quoted(SLA_TIMEOUT_MS, timeoutMs) + ") must not be below '"
          + SLA_LATENCY_MS + "' (" + in.quoted(SLA_LATENCY_MS, latencyMs) + ").");
    }
    boolean warmupChecked = !in.refused(STATS_WARMUP);
    if (mode != RampMode.NONE && warmup.compareTo(interval) >= 0 && warmupChecked && !in.refused(INTERVAL)) {
      in.problem("Property '" + STATS_WARMUP + "' (" + in.quoted(STATS_WARMUP, warmup.toSeconds() + " s")
          + ") must be shorter than '" + INTERVAL + "' (" + in.quoted(INTERVAL, interval.toSeconds() + " s")
          + "): it is cut from the peak step's window.");
    }
    if (mode == RampMode.NONE && !runLength.isZero() && warmup.compareTo(runLength) >= 0 && warmupChecked) {
      in.problem("Property '" + STATS_WARMUP + "' (" + in.quoted(STATS_WARMUP, warmup.toSeconds() + " s")
          + ") must be shorter than 'maxexecutiontime' (" + runLength.toSeconds() + " s): it is cut from the start of"
          + " the run, and nothing would be left of the plateau.");
    }
    in.throwIfProblems();
    SlaRule rule = new SlaRule(percentile, latencyMs * 1000, timeoutMs * 1000, maxErrors, perOperation, kind);
    return new RampSettings(mode, start, step, interval, maxThreads, rateStart, rateStep, rateMax, rateThreads, rule,
        warmup, warmupSet, note);
  }

  /** The one sentence naming the other kind's properties an explicit mode leaves unused. */
  private static String unusedByMode(List<String> names, String mode, String theirMode) {
    return MODE + "=" + mode + ": " + String.join(", ", names) + " not used (only " + MODE + "=" + theirMode
        + " uses " + (names.size() == 1 ? "it" : "them") + ").";
  }

  /** At most {@link #DEFAULT_WARMUP} and at most half of the window it is cut from (whole seconds). */
  static Duration defaultWarmup(Duration window) {
    if (window.isZero()) {
      return DEFAULT_WARMUP;
    }
    Duration half = Duration.ofSeconds(window.toSeconds() / 2);
    return half.compareTo(DEFAULT_WARMUP) < 0 ? half : DEFAULT_WARMUP;
  }

  /** No ramp: the defaults with mode NONE. */
  public static RampSettings none() {
    try {
      return fromProperties(new Properties());
    } catch (ConfigException e) {
      throw new IllegalStateException("the ramp defaults are inconsistent", e);
    }
  }

  /** The warm-up as a line may quote it: "5 s", or "5 s, the default" when {@code stats.warmup} was not given. */
  public String warmupQuoted() {
    return warmup.toSeconds() + " s" + (warmupGiven ? "" : ", the default");
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
