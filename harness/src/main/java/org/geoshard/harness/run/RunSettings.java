package org.geoshard.harness.run;

import java.nio.file.Path;
import java.text.Normalizer;
import java.time.Duration;
import java.util.Objects;
import java.util.Properties;
import org.geoshard.harness.api.Seeds;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.config.PropertyReader;
import org.geoshard.harness.config.YcsbCounts;
import org.geoshard.harness.observe.ExplainSettings;
import org.geoshard.harness.observe.IoTraceSettings;
import org.geoshard.harness.observe.ObserveSettings;
import org.geoshard.harness.ramp.RampMode;
import org.geoshard.harness.ramp.RampSettings;

/**
 * The harness's own settings for one load or run, read from YCSB-style properties with YCSB's names
 * where YCSB has one. Immutable; {@link #fromProperties} validates every value and reports all
 * problems at once.
 */
public final class RunSettings {
  public static final String WORKLOAD = "workload";
  public static final String THREAD_COUNT = YcsbCounts.THREAD_COUNT;
  public static final String OPERATION_COUNT = "operationcount";
  public static final String RECORD_COUNT = YcsbCounts.RECORD_COUNT;
  public static final String INSERT_START = YcsbCounts.INSERT_START;
  public static final String INSERT_COUNT = YcsbCounts.INSERT_COUNT;
  public static final String TARGET = "target";
  public static final String MAX_EXECUTION_TIME = "maxexecutiontime";
  public static final String MEASUREMENT_TYPE = "measurementtype";
  public static final String MEASUREMENT_INTERVAL = "measurement.interval";
  public static final String STATUS_INTERVAL = "status.interval";
  /** Seconds without a successful operation, while operations fail, after which a phase gives up. */
  public static final String GIVE_UP = "giveup.s";
  public static final String SEED = Seeds.SEED;
  public static final String RESULTS_DIR = "results.dir";
  public static final String RESULTS_LABEL = "results.label";
  /** Set by the harness as YCSB's Client does: true in the run phase, false in a load. */
  public static final String DO_TRANSACTIONS = "dotransactions";
  /**
   * Set by the harness before the client threads start (as {@code dotransactions}): the most client
   * threads the phase runs at once (the main threads at their most, {@code ramp.maxthreads} in a thread
   * ramp, plus every thread group), so that a binding can size what its threads share (a connection
   * pool) without knowing how the harness counts them.
   */
  public static final String CLIENT_THREADS = "clientthreads";

  /** The seed when none is given: runs are reproducible by default. */
  public static final long DEFAULT_SEED = Seeds.DEFAULT_SEED;
  public static final int MAX_THREADS = YcsbCounts.MAX_THREADS;
  /** Characters of a label: enough for any name, short enough for a folder name (255 bytes). */
  public static final int MAX_LABEL_LENGTH = 100;
  /** Long enough for a database restart or a fail-over, short enough not to run for hours into nothing. */
  public static final Duration DEFAULT_GIVE_UP = Duration.ofSeconds(30);

  private final Phase phase;
  private final String workloadClass;
  private final int threads;
  private final long operationCount;
  private final long recordCount;
  private final long insertCount;
  private final double targetOpsPerSecond;
  private final Duration maxExecutionTime;
  private final Duration statusInterval;
  private final Duration giveUp;
  private final boolean measured;
  private final MeasurementInterval measurementInterval;
  private final long seed;
  private final Path resultsDir;
  private final String label;
  private final RampSettings ramp;
  private final IoTraceSettings ioTrace;
  private final ExplainSettings explain;
  private final ObserveSettings observe;

  private RunSettings(Builder b) {
    this.phase = Objects.requireNonNull(b.phase, "phase");
    this.workloadClass = Objects.requireNonNull(b.workloadClass, "workloadClass");
    this.threads = b.threads;
    this.operationCount = b.operationCount;
    this.recordCount = b.recordCount;
    this.insertCount = b.insertCount;
    this.targetOpsPerSecond = b.targetOpsPerSecond;
    this.maxExecutionTime = Objects.requireNonNull(b.maxExecutionTime, "maxExecutionTime");
    this.statusInterval = Objects.requireNonNull(b.statusInterval, "statusInterval");
    this.giveUp = Objects.requireNonNull(b.giveUp, "giveUp");
    this.measured = b.measured;
    this.measurementInterval = Objects.requireNonNull(b.measurementInterval, "measurementInterval");
    this.seed = b.seed;
    this.resultsDir = b.resultsDir;
    this.label = Objects.requireNonNull(b.label, "label");
    this.ramp = Objects.requireNonNull(b.ramp, "ramp");
    this.ioTrace = Objects.requireNonNull(b.ioTrace, "ioTrace");
    this.explain = Objects.requireNonNull(b.explain, "explain");
    this.observe = Objects.requireNonNull(b.observe, "observe");
  }

  public static Builder builder(Phase phase, String workloadClass) {
    return new Builder(phase, workloadClass);
  }

  /**
   * Reads and checks the harness's properties.
   *
   * @param defaultLabel the label when {@code results.label} is unset (e.g. the workload file's name)
   */
  public static RunSettings fromProperties(Phase phase, Properties properties, String defaultLabel) throws ConfigException {
    PropertyReader in = new PropertyReader(properties);
    String workload = in.raw(WORKLOAD);
    if (workload == null) {
      in.problem("Property 'workload' is not set: give a workload file with -P (for example -P workloads/workloada)"
          + " or a class with -p workload=<class name>.");
    }
    Builder b = new Builder(phase, workload == null ? "" : workload);
    b.threads = in.intInRange(THREAD_COUNT, 1, 1, MAX_THREADS);
    b.operationCount = in.longAtLeast(OPERATION_COUNT, 0, 0);
    b.recordCount = in.longAtLeast(RECORD_COUNT, 0, 0);
    b.insertCount = in.longAtLeast(INSERT_COUNT, -1, 0);
    long insertStart = in.longAtLeast(INSERT_START, 0, 0);
    b.targetOpsPerSecond = in.doubleInRange(TARGET, 0, 0, 1e12);
    b.maxExecutionTime = in.seconds(MAX_EXECUTION_TIME, Duration.ZERO, 0);
    b.statusInterval = in.seconds(STATUS_INTERVAL, Duration.ofSeconds(10), 0);
    b.giveUp = in.seconds(GIVE_UP, DEFAULT_GIVE_UP, 0);
    String type = in.string(MEASUREMENT_TYPE, "hdrhistogram");
    if (!type.equals("hdrhistogram") && !type.equals("none")) {
      in.problem("Property 'measurementtype' must be hdrhistogram or none (geoshard always records"
          + " HdrHistograms), but is '" + type + "'.");
    }
    b.measured = !type.equals("none");
    b.measurementInterval = in.choice(MEASUREMENT_INTERVAL, MeasurementInterval.OP, MeasurementInterval.class);
    b.seed = in.longAtLeast(SEED, DEFAULT_SEED, Long.MIN_VALUE);
    String dir = in.raw(RESULTS_DIR);
    b.resultsDir = dir == null ? null : Path.of(dir);
    b.label = in.string(RESULTS_LABEL, defaultLabel);
    if (b.label.codePointCount(0, b.label.length()) > MAX_LABEL_LENGTH) {
      in.problem("Property '" + RESULTS_LABEL + "' (-l) is " + b.label.codePointCount(0, b.label.length())
          + " characters long; a label may have at most " + MAX_LABEL_LENGTH + ".");
    } else if (b.label.codePoints().anyMatch(Character::isISOControl)) {
      in.problem("Property '" + RESULTS_LABEL + "' (-l) holds a control character (such as a line break or a tab);"
          + " use visible characters only.");
    }

    if (b.insertCount >= 0 && b.recordCount > 0 && insertStart + b.insertCount > b.recordCount) {
      in.problem("Properties insertstart (" + insertStart + ") + insertcount (" + b.insertCount
          + ") exceed recordcount (" + b.recordCount + ").");
    }
    b.ioTrace = IoTraceSettings.read(in);
    b.explain = ExplainSettings.read(in);
    try {
      b.ramp = RampSettings.fromProperties(properties, b.maxExecutionTime);
    } catch (ConfigException e) {
      e.problems().forEach(in::problem);
    }
    try {
      b.observe = ObserveSettings.fromProperties(properties);
    } catch (ConfigException e) {
      e.problems().forEach(in::problem);
    }
    if (b.ramp != null && b.ramp.mode() != RampMode.NONE && phase == Phase.LOAD) {
      // One workload file serves both phases: its search applies to the run, a load uses threadcount.
      b.ramp = RampSettings.none();
    }
    if (b.ramp != null && b.ramp.mode() != RampMode.NONE) {
      if (b.ramp.mode() == RampMode.RATE) {
        b.measurementInterval = MeasurementInterval.INTENDED;
      }
      if (b.targetOpsPerSecond > 0) {
        in.problem("Property 'target' does not go with 'ramp.mode': a closed-loop ramp runs as fast as it can, an"
            + " open-loop ramp sets its rate with ramp.rate.start and ramp.rate.step.");
      }
    } else if (phase == Phase.RUN && b.operationCount == 0 && b.maxExecutionTime.isZero()
        && !in.refused(OPERATION_COUNT) && !in.refused(MAX_EXECUTION_TIME)) {  // a refused value is not 0
      in.problem("Nothing to run: property 'operationcount' is " + (in.isSet(OPERATION_COUNT) ? "0" : "not set")
          + " and 'maxexecutiontime' is not set;"
          + " set one of them (operationcount=0 with maxexecutiontime runs until the time is up).");
    }
    in.throwIfProblems();
    return b.build();
  }

  /**
   * The label made usable as part of a folder name on any file system: accents dropped
   * ({@code Zürich} becomes {@code Zurich}), anything else but ASCII letters, digits, '.', '_' and '-'
   * becomes '_'. Only the folder name is made safe; run.json and the report keep the label as typed.
   */
  static String sanitizeLabel(String label) {
    String plain = Normalizer.normalize(label, Normalizer.Form.NFD).replaceAll("\\p{M}+", "");
    String clean = plain.replaceAll("[^A-Za-z0-9._-]+", "_");
    return clean.isEmpty() || clean.equals("_") ? "default" : clean;
  }

  public Phase phase() {
    return phase;
  }

  public String workloadClass() {
    return workloadClass;
  }

  public int threads() {
    return threads;
  }

  /** YCSB's {@code operationcount}; 0 means "until maxexecutiontime" in the run phase. */
  public long operationCount() {
    return operationCount;
  }

  public long recordCount() {
    return recordCount;
  }

  /** YCSB's {@code insertcount}, or -1 when unset. */
  public long insertCount() {
    return insertCount;
  }

  /** Offered load over all threads in operations per second; 0 means as fast as possible. */
  public double targetOpsPerSecond() {
    return targetOpsPerSecond;
  }

  /** Zero when the run is not limited in time. */
  public Duration maxExecutionTime() {
    return maxExecutionTime;
  }

  /** Zero when no status lines are wanted. */
  public Duration statusInterval() {
    return statusInterval;
  }

  /** How long a phase goes on with failures and no success ({@code giveup.s}); zero never gives up. */
  public Duration giveUp() {
    return giveUp;
  }

  /** False with {@code measurementtype=none}: operations run unmeasured (to gauge the harness). */
  public boolean measured() {
    return measured;
  }

  public MeasurementInterval measurementInterval() {
    return measurementInterval;
  }

  public long seed() {
    return seed;
  }

  /** The run folder asked for, or null for the default location. */
  public Path resultsDir() {
    return resultsDir;
  }

  /** The label as typed (run.json, the report). */
  public String label() {
    return label;
  }

  /** The label as the last part of the default run folder's name. */
  public String folderLabel() {
    return sanitizeLabel(label);
  }

  /** {@code trace.io}: the stages whose block I/O is traced (none by default). */
  public IoTraceSettings ioTrace() {
    return ioTrace;
  }

  /** {@code observe.explain.*}: how many real requests per operation and window are explained. */
  public ExplainSettings explain() {
    return explain;
  }

  /** The max-throughput search, or mode NONE for a run with a fixed number of threads. */
  public RampSettings ramp() {
    return ramp;
  }

  /** The server sampler's settings ({@code observe.*}). */
  public ObserveSettings observe() {
    return observe;
  }

  /** Threads at the start: {@code threadcount}, or the ramp's first step. */
  public int initialThreads() {
    return ramp.initialThreads(threads);
  }

  /**
   * How many operations the phase performs over all threads, 0 meaning "until stopped" (by time, or
   * by the ramp, which ignores {@code operationcount}).
   * A load inserts {@code insertcount} records if set, else {@code recordcount} (YCSB's rule); the
   * workload may supply the record count when the user did not.
   */
  public long plannedOperations(long workloadRecordCount) {
    if (ramp.mode() != RampMode.NONE) {
      return 0;
    }
    if (phase == Phase.RUN) {
      return operationCount;
    }
    if (insertCount >= 0) {
      return insertCount;
    }
    return recordCount > 0 ? recordCount : workloadRecordCount;
  }

  /** A copy builder, for tests and for commands that run the harness programmatically. */
  public static final class Builder {
    private final Phase phase;
    private final String workloadClass;
    private int threads = 1;
    private long operationCount;
    private long recordCount;
    private long insertCount = -1;
    private double targetOpsPerSecond;
    private Duration maxExecutionTime = Duration.ZERO;
    private Duration statusInterval = Duration.ofSeconds(10);
    private Duration giveUp = DEFAULT_GIVE_UP;
    private boolean measured = true;
    private MeasurementInterval measurementInterval = MeasurementInterval.OP;
    private long seed = DEFAULT_SEED;
    private Path resultsDir;
    private String label = "default";
    private RampSettings ramp = RampSettings.none();
    private IoTraceSettings ioTrace = IoTraceSettings.off();
    private ExplainSettings explain = ExplainSettings.off();
    private ObserveSettings observe = ObserveSettings.builder().build();

    private Builder(Phase phase, String workloadClass) {
      this.phase = phase;
      this.workloadClass = workloadClass;
    }

    public Builder ioTrace(IoTraceSettings ioTrace) {
      this.ioTrace = ioTrace;
      return this;
    }

    public Builder explain(ExplainSettings explain) {
      this.explain = explain;
      return this;
    }

    public Builder threads(int threads) {
      this.threads = threads;
      return this;
    }

    public Builder operationCount(long operationCount) {
      this.operationCount = operationCount;
      return this;
    }

    public Builder maxExecutionTime(Duration maxExecutionTime) {
      this.maxExecutionTime = maxExecutionTime;
      return this;
    }

    public Builder statusInterval(Duration statusInterval) {
      this.statusInterval = statusInterval;
      return this;
    }

    public Builder giveUp(Duration giveUp) {
      this.giveUp = giveUp;
      return this;
    }

    public Builder measured(boolean measured) {
      this.measured = measured;
      return this;
    }

    public Builder resultsDir(Path resultsDir) {
      this.resultsDir = resultsDir;
      return this;
    }

    public Builder label(String label) {
      this.label = label;
      return this;
    }

    public Builder observe(ObserveSettings observe) {
      this.observe = observe;
      return this;
    }

    public RunSettings build() {
      if (threads < 1 || threads > MAX_THREADS) {
        throw new IllegalArgumentException("threads must be from 1 to " + MAX_THREADS + ": " + threads);
      }
      if (operationCount < 0) {
        throw new IllegalArgumentException("operationCount must be >= 0: " + operationCount);
      }
      if (maxExecutionTime.isNegative() || statusInterval.isNegative() || giveUp.isNegative()) {
        throw new IllegalArgumentException("durations must not be negative");
      }
      return new RunSettings(this);
    }
  }
}
