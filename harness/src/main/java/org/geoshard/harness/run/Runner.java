package org.geoshard.harness.run;

import static org.geoshard.harness.api.Throwables.describe;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.geoshard.harness.api.DataDeclaration;
import org.geoshard.harness.api.FailureLog;
import org.geoshard.harness.api.SharedObjects;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.measure.Meters;
import org.geoshard.harness.measure.StopReason;
import org.geoshard.harness.observe.ExplainSampler;
import org.geoshard.harness.observe.IoTraceSession;
import org.geoshard.harness.observe.ServerObserver;
import org.geoshard.harness.observe.Stage;
import org.geoshard.harness.observe.StageListener;
import org.geoshard.harness.observe.StageListeners;
import org.geoshard.harness.observe.StageWatchListener;
import org.geoshard.harness.output.RunResult;
import org.geoshard.harness.output.Summary;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.Workload;

/**
 * Runs one YCSB phase with YCSB's contracts (one binding instance per thread, {@code init},
 * {@code initThread}, {@code doInsert}/{@code doTransaction}, {@code cleanup}) and writes the run
 * folder. It fixes what YCSB 0.17.0's {@code Client} gets wrong: counts are {@code long},
 * {@code operationcount=0} with {@code maxexecutiontime} runs until the time is up, errors are
 * reported rather than exiting 0, and a stop (Ctrl-C) still writes every measurement.
 *
 * <p>One runner performs one execution. {@link #stop(StopReason)} may be called from any thread.
 */
public final class Runner {
  private static final Logger LOG = LoggerFactory.getLogger(Runner.class);

  private final RunSettings settings;
  private final Properties properties;
  private final Binding binding;
  private final Path defaultRoot;
  private final Meters meters;
  /** The phase's own time: its runtime, its deadline, the grace. */
  private final Ticker clock;
  /** The wall clock of the run folder's name and of the times in run.json. */
  private final Clock wallClock;
  /** Exceptions thrown out of the binding's operations: logged rate-limited, counted as errors. */
  private final FailureLog thrown = new FailureLog(LoggerFactory.getLogger(MeasuredDB.class));
  private final StopSignal stop = new StopSignal();
  private final CountDownLatch finished = new CountDownLatch(1);
  /** Observers started and stopped around the load, the preparation after it and the run. */
  private final StageListeners stageListeners = new StageListeners();
  private Duration stopGrace = ClientThreads.STOP_GRACE;
  /** The clock and wait of the client threads' schedule and latencies. */
  private Ticker schedule;
  /** What the phase's binding instances share (their {@code RunContext}); closed when the phase ends. */
  private SharedObjects shared;
  /** The command's context when it runs several phases ({@link #within}); null: the phase is its own. */
  private org.geoshard.harness.api.RunContext process;

  public Runner(RunSettings settings, Properties properties, Binding binding, Path defaultRoot) {
    this(settings, properties, binding, defaultRoot, Meters.forThisMachine(), Ticker.SYSTEM, Clock.systemUTC());
  }

  Runner(RunSettings settings, Properties properties, Binding binding, Path defaultRoot, Meters meters, Ticker clock,
      Clock wallClock) {
    this.settings = settings;
    this.properties = properties;
    this.binding = binding;
    this.defaultRoot = defaultRoot;
    this.meters = meters;
    this.clock = clock;
    this.wallClock = wallClock;
    this.schedule = clock;
  }

  /**
   * Initialises the workload, runs the phase and writes the run folder.
   *
   * @throws ConfigException the workload refused its properties, or the run folder is taken
   * @throws StartFailedException the binding or a thread failed to initialise (nothing measured)
   */
  public RunResult execute() throws ConfigException, StartFailedException, IOException {
    try {
      return executeOnce();
    } finally {
      if (shared != null) {
        shared.close();  // after the last instance's cleanup (or its abandonment): the phase's shared objects end with it
      }
      finished.countDown();
    }
  }

  private RunResult executeOnce() throws ConfigException, StartFailedException, IOException {
    // YCSB's Client tells workloads and bindings the phase this way; some act on it.
    properties.setProperty(RunSettings.DO_TRANSACTIONS, Boolean.toString(settings.phase() == Phase.RUN));
    Workload workload = WorkloadLoader.initialise(settings.workloadClass(), properties);
    stop.whenStopped(workload::requestStop);
    PhasePlan plan = PhasePlan.of(settings, workload, binding);
    RunRecorder recorder = RunRecorder.create(settings, defaultRoot, binding, properties, plan, wallClock);
    LOG.info("Run folder: {}", recorder.path());
    if (settings.ramp().note() != null) {
      LOG.warn(settings.ramp().note());  // the user did not say which; what runs must not be a surprise
    }
    shared = new SharedObjects(DataDeclaration.ofInitialised(workload, properties), process);
    BindingSession session = new BindingSession(binding, properties, recorder.record(), shared);
    attachListeners(plan.listeners(), recorder, session);
    try {
      // Observers reach the server first (their probes): a Ctrl-C while that waits ends the wait too.
      stop.interruptibly(stageListeners::open);
      PhasePreparation preparation = new PhasePreparation(plan, session, stop, recorder, stageListeners);
      preparation.beforeThreads();
      return measure(plan, workload, recorder, session, preparation);
    } finally {
      stageListeners.endOpen();
      stageListeners.close();  // idempotent: after a failure, what was gathered is kept
    }
  }

  private void attachListeners(PhasePlan.Listeners listeners, RunRecorder recorder, BindingSession session) {
    if (listeners.traceIo()) {
      stageListeners.add(new IoTraceSession(settings.ioTrace(), recorder.path(), recorder.record(), session::localServer));
    }
    if (listeners.watchStages()) {
      stageListeners.add(new StageWatchListener(session::stageWatch, recorder.record()));
    }
    if (listeners.observeServers()) {
      stageListeners.add(new ServerObserver(settings.observe(), recorder.path(), session::serverProbes, recorder.record()));
    }
  }

  private RunResult measure(PhasePlan plan, Workload workload, RunRecorder recorder, BindingSession session,
      PhasePreparation preparation) throws StartFailedException, IOException {
    properties.setProperty(RunSettings.CLIENT_THREADS, Integer.toString(plan.clientThreads()));
    recorder.threadGroups(plan);
    ExplainSampler explainer = plan.explainWindow() == null ? null
        : new ExplainSampler(settings.explain().samples(), plan.explainWindow().toNanos(), clock::nanoTime);
    ClientThreads clients = new ClientThreads(workload, plan.load(), plan.clientThreads(),
        (id, interval) -> measuredDb(id, interval, explainer), properties, stop, schedule, clock);
    OfferedLoad load = new OfferedLoad(plan, settings.ramp().mode(), settings.measurementInterval());
    load.start(clients);
    clients.awaitReady();
    if (clients.startFailure() != null) {
      stop.stop(StopReason.FAILED);
      clients.join(stopGrace);
      throw recorder.failedToStart("failed to start", "The run could not start", clients.startFailure());
    }

    // Before the clock starts: an observer's start-up (a tracer attaching) is not counted as run time.
    Stage phaseStage = plan.load() ? Stage.LOAD : Stage.RUN;
    stageListeners.started(phaseStage);
    PhaseMeasurement measurement = PhaseMeasurement.start(settings, plan, meters, recorder, clients, stageListeners,
        stop);
    long startNanos = clock.nanoTime();
    if (explainer != null) {
      explainer.start();
    }
    clients.open();
    PhaseDriver driver = new PhaseDriver(stop, clients, clock, startNanos, settings.maxExecutionTime());
    if (measurement.steps() == null) {
      driver.awaitEnd();
    } else {
      driver.follow(measurement.steps(), next -> load.step(next, clients));
    }
    stop.endPhase();  // the main threads are done: the thread groups stop too
    if (stop.cutOff()) {
      stageListeners.cutOff();
    }
    boolean allEnded = clients.joinAfterStop(stopGrace, stop.cutOff());
    long runtimeMs = Math.max(1, TimeUnit.NANOSECONDS.toMillis(clock.nanoTime() - startNanos));
    stageListeners.ended(phaseStage);
    measurement.stop();
    cleanup(workload);
    String preparationFailure = preparation.afterThreads();
    if (stop.cutOff()) {
      recorder.topologySkipped(stop.reason());  // a cut-off phase ends now: no reading from a stalled server
    } else {
      session.recordTopology("after " + settings.phase().commandName(), plan.data());
    }

    StopReason reason = stop.reason() != null ? stop.reason() : StopReason.COMPLETED;
    RunResult result = measurement.result(reason, runtimeMs, clients, preparationFailure);
    Summary.write(recorder.folder(), result, measurement.totals().perOperation());
    NotFoundNotice.lines(meters.notFound(), measurement.totals().perOperation(), properties).forEach(LOG::warn);
    recorder.measuringCost(measurement.cost(), explainer == null ? null : explainer.toRecord());
    stageListeners.close();  // their records go into the final run.json
    recorder.finished(reason, measurement.startEpochMs(), runtimeMs, allEnded, preparationFailure);
    return result;
  }

  private MeasuredDB measuredDb(int id, MeasurementInterval interval, ExplainSampler explainer) {
    MeasuredDB db = new MeasuredDB(binding.newInstance(properties, shared), meters, id, settings.measured(), interval, thrown,
        schedule);
    if (explainer != null) {
      db.explainer(explainer);
    }
    return db;
  }

  private static void cleanup(Workload workload) {
    try {
      workload.cleanup();
    } catch (Exception e) {
      LOG.error("The workload failed in cleanup: {}", describe(e), e);
    }
  }

  /**
   * Adds an observer told when the load, the preparation after it and the run start and end (before
   * {@link #execute()}); the {@code trace.io} tracer is one.
   */
  public Runner addStageListener(StageListener listener) {
    stageListeners.add(listener);
    return this;
  }

  /**
   * Runs the phase within a command that runs several ({@code bench}): what its bindings say once per
   * process ({@link org.geoshard.harness.api.RunContext#process()}) lives in {@code process}, which
   * the command closes at its end.
   */
  public Runner within(org.geoshard.harness.api.RunContext process) {
    this.process = process;
    return this;
  }

  /** A shorter grace than {@link ClientThreads#STOP_GRACE} (tests of what outlives it). */
  Runner stopGrace(Duration grace) {
    this.stopGrace = grace;
    return this;
  }

  /** Another clock for the client threads' schedule (tests that place a stop inside a thread's wait). */
  Runner ticker(Ticker ticker) {
    this.schedule = ticker;
    return this;
  }

  /** Asks every thread to stop after its current operation; the first reason given wins. */
  public void stop(StopReason reason) {
    stop.stop(reason);
  }

  /** Whether a stop was asked (tests that place one inside a thread's wait). */
  boolean stopRequested() {
    return stop.requested();
  }

  /** Waits until {@link #execute()} has returned or thrown (used by the Ctrl-C handler). */
  public boolean awaitFinished(Duration timeout) throws InterruptedException {
    return finished.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }
}
