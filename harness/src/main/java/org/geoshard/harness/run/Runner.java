package org.geoshard.harness.run;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.geoshard.harness.api.DataRole;
import org.geoshard.harness.api.DataDeclaration;
import org.geoshard.harness.api.DeclaresData;
import org.geoshard.harness.api.SharedObjects;
import org.geoshard.harness.api.ExplainsOperations;
import org.geoshard.harness.api.FailureLog;
import org.geoshard.harness.api.KnowsInsertCount;
import org.geoshard.harness.api.Preparable;
import org.geoshard.harness.api.RequiresContracts;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.api.Secrets;
import org.geoshard.harness.measure.IntervalSampler;
import org.geoshard.harness.measure.Meters;
import org.geoshard.harness.measure.StopReason;
import org.geoshard.harness.measure.Totals;
import org.geoshard.harness.observe.ExplainSampler;
import org.geoshard.harness.observe.IoTraceSession;
import org.geoshard.harness.observe.ObserveSettings;
import org.geoshard.harness.observe.ServerObserver;
import org.geoshard.harness.observe.Stage;
import org.geoshard.harness.observe.StageListener;
import org.geoshard.harness.observe.StageListeners;
import org.geoshard.harness.observe.StageWatchListener;
import org.geoshard.harness.output.HlogWriters;
import org.geoshard.harness.output.Progress;
import org.geoshard.harness.output.RunFolder;
import org.geoshard.harness.output.RunRecord;
import org.geoshard.harness.output.RunResult;
import org.geoshard.harness.output.StatusReporter;
import org.geoshard.harness.output.Summary;
import org.geoshard.harness.output.TimeseriesWriter;
import org.geoshard.harness.api.ThreadGroups;
import org.geoshard.harness.api.ThreadGroups.ThreadGroup;
import org.geoshard.harness.ramp.RampController;
import org.geoshard.harness.ramp.StepController;
import org.geoshard.harness.ramp.SweepController;
import org.geoshard.harness.ramp.RampMode;
import org.geoshard.harness.ramp.RampResult;
import org.geoshard.harness.ramp.RampSettings;
import org.geoshard.harness.ramp.StepRecord;
import org.geoshard.harness.stats.Plateau;
import org.geoshard.harness.stats.Timeline;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.DBException;
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
  /** How long a phase that ends at its count or time waits for operations in flight and the bindings' flush. */
  static final Duration STOP_GRACE = Duration.ofSeconds(30);
  /**
   * The same wait after Ctrl-C, SIGTERM or a give-up: the user or the watch has decided that the phase
   * ends now, and a stalled server would otherwise hold the exit for the whole grace.
   */
  static final Duration ABANDON_GRACE = Duration.ofMillis(500);

  private final RunSettings settings;
  private final Properties properties;
  private final Binding binding;
  private final Path defaultRoot;
  private final Meters meters = Meters.forThisMachine();
  /** Exceptions thrown out of the binding's operations: logged rate-limited, counted as errors. */
  private final FailureLog thrown = new FailureLog(LoggerFactory.getLogger(MeasuredDB.class));
  private final CountDownLatch startGate = new CountDownLatch(1);
  private final CountDownLatch finished = new CountDownLatch(1);
  private final AtomicInteger running = new AtomicInteger();
  private final AtomicInteger crashed = new AtomicInteger();
  private final AtomicReference<StopReason> stopReason = new AtomicReference<>();
  private final AtomicReference<Throwable> startFailure = new AtomicReference<>();
  private final List<Worker> workers = new CopyOnWriteArrayList<>();
  private final List<Thread> threads = new CopyOnWriteArrayList<>();
  private final Pacer pacer = new Pacer(0, false);
  private final Map<String, Pacer> groupPacers = new java.util.HashMap<>();
  private final List<Thread> mainThreads = new CopyOnWriteArrayList<>();
  private List<ThreadGroup> groups = List.of();
  private int workloadThreadCount;
  private CountDownLatch ready;
  private volatile boolean stopRequested;
  /** Guards {@link #waitingOnServer}: the thread waiting on the server before the start, or null. */
  private final Object interruptLock = new Object();
  private Thread waitingOnServer;
  private Workload workload;
  /** The data the workload declares (what preparation may touch). */
  private Set<DataRole> data = Set.of();
  /** What the phase's binding instances share; closed when the phase ends. */
  private SharedObjects shared;
  private Duration stopGrace = STOP_GRACE;
  private Ticker ticker = Ticker.SYSTEM;
  /** Observers started and stopped around the load, the preparation after it and the run. */
  private final StageListeners stageListeners = new StageListeners();
  /** Explains a few real requests per operation and step; null when off. */
  private ExplainSampler explainer;

  public Runner(RunSettings settings, Properties properties, Binding binding, Path defaultRoot) {
    this.settings = settings;
    this.properties = properties;
    this.binding = binding;
    this.defaultRoot = defaultRoot;
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
    workload = WorkloadLoader.initialise(settings.workloadClass(), properties);
    checkContracts();
    data = DeclaresData.of(workload);
    shared = new SharedObjects(DataDeclaration.of(workload, properties));
    groups = settings.phase() == Phase.RUN && workload instanceof ThreadGroups tg ? List.copyOf(tg.threadGroups()) : List.of();
    if (groups.stream().filter(ThreadGroup::sweeps).count() > 1) {
      throw new ConfigException("Workload " + workload.getClass().getSimpleName() + " sweeps more than one thread group;"
          + " one sweep per run.");
    }
    if (groups.stream().anyMatch(ThreadGroup::sweeps) && settings.ramp().mode() != RampMode.NONE) {
      throw new ConfigException("A sweep (" + groups.stream().filter(ThreadGroup::sweeps).findFirst().orElseThrow().name()
          + ") and a ramp (ramp.mode) cannot run together: set one of them.");
    }
    long planned = settings.plannedOperations(workload instanceof KnowsInsertCount k ? k.insertCount() : 0);
    if (settings.phase() == Phase.LOAD && planned == 0 && settings.maxExecutionTime().isZero()) {
      throw new ConfigException("Nothing to load: set property 'recordcount' (or 'insertcount') to the number of records.");
    }

    RunFolder folder = RunFolder.create(settings.resultsDir(), defaultRoot, Instant.now(),
        settings.phase().commandName(), binding.name(), settings.folderLabel());
    RunRecord record = new RunRecord(settings.phase().commandName(), binding.name(), binding.type().getName(),
        settings.workloadClass(), settings.label(), properties);
    record.put("data", data.stream().map(DataRole::name).sorted().toList());
    record.put("threads", settings.initialThreads()).put("plannedOperations", planned).put("seed", settings.seed())
        .put("warmupSeconds", settings.ramp().warmup().toSeconds());  // derived when not set: merge needs it
    record.time("createdTime", Instant.now());
    folder.writeJson(RunFolder.RUN_JSON, record.asMap());
    LOG.info("Run folder: {}", folder.path());
    if (settings.ramp().note() != null) {
      LOG.warn(settings.ramp().note());  // the user did not say which; what runs must not be a surprise
    }
    BindingSession session = new BindingSession(binding, properties, record, shared);
    if (!settings.ioTrace().stages().isEmpty()) {
      stageListeners.add(new IoTraceSession(settings.ioTrace(), folder.path(), record, session::localServer));
    }
    if (session.watchesStages()) {
      stageListeners.add(new StageWatchListener(session::stageWatch, record));
    }
    ObserveSettings observe = settings.observe();
    if (observe.enabled() && (session.observesServers() || !observe.nodeExporters().isEmpty())) {
      stageListeners.add(new ServerObserver(observe, folder.path(), session::serverProbes, record));
    }
    try {
      // Observers reach the server first (their probes): a Ctrl-C while that waits ends the wait too.
      enterServerWait();
      try {
        stageListeners.open();
      } finally {
        leaveServerWait();
      }
      return measure(folder, record, session, planned);
    } finally {
      stageListeners.endOpen();
      stageListeners.close();  // idempotent: after a failure, what was gathered is kept
    }
  }

  private RunResult measure(RunFolder folder, RunRecord record, BindingSession session, long planned)
      throws ConfigException, StartFailedException, IOException {
    if (settings.phase() == Phase.LOAD) {
      try {
        beforeWorkers(() -> session.prepare(Preparable.Stage.BEFORE_LOAD, data));
      } catch (DBException | RuntimeException e) {
        interruptedBeforeStart(folder, record);
        record.put("status", "failed to prepare").put("stopReason", StopReason.FAILED.label())
            .put("failure", Secrets.maskText("Preparing the database failed: " + describe(e)));
        folder.writeJson(RunFolder.RUN_JSON, record.asMap());
        throw new StartFailedException("Preparing the database failed: " + describe(e), e);
      }
      folder.writeJson(RunFolder.RUN_JSON, record.asMap());
    } else {
      try {
        beforeWorkers(() -> session.checkBeforeRun(data));
      } catch (DBException | RuntimeException e) {
        interruptedBeforeStart(folder, record);
        record.put("status", "failed to start").put("stopReason", StopReason.FAILED.label())
            .put("failure", Secrets.maskText("The run could not start: " + describe(e)));
        folder.writeJson(RunFolder.RUN_JSON, record.asMap());
        throw new StartFailedException("The run could not start: " + describe(e), e);
      }
    }

    RampSettings rampSettings = settings.ramp();
    boolean ramping = rampSettings.mode() != RampMode.NONE;
    pacer.setRate(switch (rampSettings.mode()) {
      case RATE -> rampSettings.startRate() / rampSettings.rateThreads();
      case THREADS -> 0;
      case NONE -> settings.targetOpsPerSecond() / settings.threads();
    });
    int groupThreads = groups.stream().mapToInt(ThreadGroup::threads).sum();
    workloadThreadCount = (rampSettings.mode() == RampMode.THREADS ? rampSettings.maxThreads() : settings.initialThreads())
        + groupThreads;
    properties.setProperty(RunSettings.CLIENT_THREADS, Integer.toString(workloadThreadCount));
    if (!groups.isEmpty()) {
      record.put("threadGroups", groups.stream().map(g -> Map.of("name", g.name(), "threads", g.threads(),
          "rates", g.rates(), "stepSeconds", g.stepInterval().toSeconds())).toList());
    }
    explainer = explainSampler(rampSettings);
    ready = new CountDownLatch(settings.initialThreads() + groupThreads);
    mainThreads.addAll(startWorkers(settings.initialThreads(), planned, pacer, settings.measurementInterval()));
    for (ThreadGroup group : groups) {
      // Paced groups are measured from the intended start: a slow database must not slow their schedule.
      Pacer groupPacer = new Pacer(group.rates().get(0) / group.threads(), true);
      groupPacers.put(group.name(), groupPacer);
      startWorkers(group.threads(), 0, groupPacer, MeasurementInterval.INTENDED);
    }
    awaitReady();
    if (startFailure.get() != null) {
      stop(StopReason.FAILED);
      joinWorkers(stopGrace);
      Throwable cause = startFailure.get();
      record.put("status", "failed to start").put("stopReason", StopReason.FAILED.label())
          .put("failure", Secrets.maskText("The run could not start: " + describe(cause)));
      folder.writeJson(RunFolder.RUN_JSON, record.asMap());
      throw new StartFailedException("The run could not start: " + describe(cause), cause);
    }

    // Before the clock starts: an observer's start-up (a tracer attaching) is not counted as run time.
    Stage phaseStage = settings.phase() == Phase.LOAD ? Stage.LOAD : Stage.RUN;
    stageListeners.started(phaseStage);
    IntervalSampler sampler = new IntervalSampler(meters, 1, TimeUnit.SECONDS, running::get);
    Totals totals = new Totals();
    Timeline timeline = new Timeline();
    ThreadGroup sweepGroup = groups.stream().filter(ThreadGroup::sweeps).findFirst().orElse(null);
    StepController steps = ramping ? new RampController(rampSettings)
        : sweepGroup != null ? new SweepController(sweepGroup, rampSettings.rule()) : null;
    sampler.addListener(totals);
    sampler.addListener(timeline);
    if (steps != null) {
      sampler.addListener(steps);
    }
    sampler.addListener(new TimeseriesWriter(folder.path()));
    long startMs = sampler.start();
    stageListeners.clockStarted(startMs);
    sampler.addListener(new HlogWriters(folder.path(), startMs));
    // A measured phase only: unmeasured operations report neither successes nor failures.
    if (settings.measured() && !settings.giveUp().isZero()) {
      sampler.addListener(new GiveUpWatch(settings.giveUp(), startMs, this::longestWaitMs, () -> stop(StopReason.GIVEUP)));
    }
    if (!settings.statusInterval().isZero()) {
      // The plan counts the workload's calls (records in a load), which may each measure several operations.
      int planners = settings.initialThreads();
      Progress progress = steps != null ? Progress.ofSteps(steps::progress)
          : Progress.of(planned, settings.maxExecutionTime(), settings.phase() == Phase.LOAD ? "records" : "operations")
              .counting(() -> workers.stream().limit(planners).mapToLong(Worker::calls).sum());
      sampler.addListener(new StatusReporter(settings.statusInterval(), startMs, progress));
    }
    record.time("startTime", Instant.ofEpochMilli(startMs));
    long startNanos = System.nanoTime();
    if (explainer != null) {
      explainer.start();
    }
    startGate.countDown();

    if (steps == null) {
      waitForEnd(startNanos);
    } else {
      driveSteps(steps, sweepGroup, startNanos);
    }
    stopRequested = true;  // the main threads are done: the thread groups stop too
    workload.requestStop();
    Duration grace = stopGrace;
    if (cutOff(stopReason.get())) {
      stageListeners.cutOff();
      grace = ABANDON_GRACE.compareTo(stopGrace) < 0 ? ABANDON_GRACE : stopGrace;
    }
    boolean allEnded = joinWorkers(grace);
    long runtimeMs = Math.max(1, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos));
    stageListeners.ended(phaseStage);
    sampler.stop();
    cleanupWorkload();
    String preparationFailure = null;
    if (settings.phase() == Phase.LOAD && stopReason.get() == null) {
      stageListeners.started(Stage.AFTER_LOAD);
      try {
        session.prepare(Preparable.Stage.AFTER_LOAD, data);
      } catch (DBException | RuntimeException e) {
        // One sentence for the user; the stack is for debugging only.
        preparationFailure = Secrets.maskText("Preparing the database after the load failed: " + describe(e));
        LOG.error(preparationFailure);
        LOG.debug("The failed preparation step", e);
      } finally {
        stageListeners.ended(Stage.AFTER_LOAD);
      }
    }
    StopReason ended = stopReason.get();
    if (cutOff(ended)) {
      // A server that stopped answering would hold the topology's reads for its whole deadline (an hour in the
      // study), and an interrupt must act at once: the run folder is completed without it.
      record.put("topology", Map.of("recorded", "not after " + settings.phase().commandName() + " (stopped: "
          + ended.label() + ")"));
    } else {
      session.recordTopology("after " + settings.phase().commandName(), data);
    }

    StopReason reason = stopReason.get() != null ? stopReason.get() : StopReason.COMPLETED;
    long operations = settings.measured() ? totals.operations() : workers.stream().mapToLong(Worker::done).sum();
    // Unmeasured runs (the harness gauging itself) know no errors: every operation counts.
    long succeeded = settings.measured() ? totals.succeeded() : operations;
    RampResult stepResult = steps == null ? null : steps.finish();
    RampResult rampResult = ramping ? stepResult : null;
    Plateau plateau = plateau(timeline, rampResult, rampSettings.warmup().toSeconds());
    // A load has no plateau worth a word (it ends when the data is in): only a run's missing one is.
    if (plateau == null && rampResult == null && !timeline.points().isEmpty() && settings.phase() == Phase.RUN) {
      LOG.warn("The run lasted {} s, no longer than {} ({} s): summary.json has no plateau statistics; run longer"
          + " or set a shorter {}.", runtimeMs / 1000, RampSettings.STATS_WARMUP, rampSettings.warmup().toSeconds(),
          RampSettings.STATS_WARMUP);
    }
    RunResult result = new RunResult(folder.path(), reason, runtimeMs, operations, totals.errors(),
        succeeded * 1000.0 / runtimeMs, workers.size(), crashed.get(), totals.overall(), totals.perOperation(),
        rampResult, plateau, preparationFailure,
        sweepGroup == null ? null : new RunResult.Sweep(sweepGroup.name(), stepResult));
    Summary.write(folder, result, totals.perOperation());
    if (explainer != null) {
      record.put("queryTargeting", explainer.toRecord());
    }
    long[] samplerCost = sampler.cost();
    record.put("sampler", Map.of("intervals", samplerCost[0], "meanMicros", samplerCost[1] / 1000,
        "maxMicros", samplerCost[2] / 1000));
    stageListeners.close();  // their records go into the final run.json
    if (preparationFailure != null) {
      record.put("failure", preparationFailure);
    }
    record.put("status", preparationFailure != null ? "failed"
            : allEnded ? "finished" : "finished with threads still inside an operation")
        .put("stopReason", reason.label())
        .time("endTime", Instant.ofEpochMilli(startMs + runtimeMs))
        .put("runtimeMs", runtimeMs);
    folder.writeJson(RunFolder.RUN_JSON, record.asMap());
    return result;
  }

  /** The explain sampler of a run whose binding explains requests, windows as long as the steps; else null. */
  private ExplainSampler explainSampler(RampSettings rampSettings) {
    if (settings.phase() != Phase.RUN || !settings.explain().enabled() || !settings.measured()
        || !ExplainsOperations.class.isAssignableFrom(binding.type())) {
      return null;
    }
    Duration window = rampSettings.mode() != RampMode.NONE ? rampSettings.interval()
        : groups.stream().filter(ThreadGroup::sweeps).map(ThreadGroup::stepInterval).findFirst()
            .orElse(settings.explain().window());
    return new ExplainSampler(settings.explain().samples(), window.toNanos(), System::nanoTime);
  }

  /**
   * Adds an observer told when the load, the preparation after it and the run start and end (before
   * {@link #execute()}); the {@code trace.io} tracer is one.
   */
  public Runner addStageListener(StageListener listener) {
    stageListeners.add(listener);
    return this;
  }

  /** A shorter grace than {@link #STOP_GRACE} (tests of what outlives it). */
  Runner stopGrace(Duration grace) {
    this.stopGrace = grace;
    return this;
  }

  /** Another clock for the client threads' schedule (tests that place a stop inside a thread's wait). */
  Runner ticker(Ticker ticker) {
    this.ticker = ticker;
    return this;
  }

  Ticker ticker() {
    return ticker;
  }

  /** Asks every thread to stop after its current operation; the first reason given wins. */
  public void stop(StopReason reason) {
    stopReason.compareAndSet(null, reason);
    stopRequested = true;
    synchronized (interruptLock) {
      if (waitingOnServer != null) {
        waitingOnServer.interrupt();
      }
    }
    Workload w = workload;
    if (w != null) {
      w.requestStop();
    }
    startGate.countDown();
  }

  /** Waits until {@link #execute()} has returned or thrown (used by the Ctrl-C handler). */
  public boolean awaitFinished(Duration timeout) throws InterruptedException {
    return finished.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  boolean stopRequested() {
    return stopRequested;
  }

  Properties properties() {
    return properties;
  }

  /** Called by a worker once initialised; false means the run was stopped before it started. */
  boolean awaitStart(int id) {
    ready.countDown();
    try {
      startGate.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
    return !stopRequested;
  }

  void workerFailedToStart(int id, Throwable e) {
    // The launcher reports the first failure once; the details are for debugging.
    if (startFailure.compareAndSet(null, e)) {
      LOG.debug("Thread {} could not initialise", id, e);
    }
    ready.countDown();
  }

  void workerCrashed(int id, Throwable e) {
    crashed.incrementAndGet();
    LOG.error("Thread {} crashed; what it measured is kept, the other threads go on: {}", id, e.toString(), e);
  }

  void workerCleanupFailed(int id, Throwable e) {
    crashed.incrementAndGet();
    LOG.error("Thread {} could not clean its binding up (data it buffered may be lost): {}", id, describe(e), e);
  }

  /**
   * Starts {@code count} more client threads. With a planned operation count the threads share it as
   * YCSB does ({@code planned / count}, the first {@code planned % count} threads one more).
   */
  private List<Thread> startWorkers(int count, long planned, Pacer workerPacer, MeasurementInterval interval) {
    int first = workers.size();
    boolean load = settings.phase() == Phase.LOAD;
    List<Thread> started = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int id = first + i;
      long share = planned / count + (i < planned % count ? 1 : 0);
      MeasuredDB db = new MeasuredDB(binding.newInstance(properties, shared), meters, id, settings.measured(), interval,
          thrown);
      if (explainer != null) {
        db.explainer(explainer);
      }
      Worker worker = new Worker(id, workloadThreadCount, db, workload, load, share, workerPacer, this);
      Thread thread = new Thread(() -> {
        running.incrementAndGet();
        try {
          worker.run();
        } finally {
          running.decrementAndGet();
        }
      }, "client-" + id);
      thread.setDaemon(true);
      workers.add(worker);
      threads.add(thread);
      started.add(thread);
    }
    started.forEach(Thread::start);
    return started;
  }

  /** Follows the steps' decisions until they stop, the time is up, or the run is stopped. */
  private void driveSteps(StepController steps, ThreadGroup sweepGroup, long startNanos) {
    long deadline = settings.maxExecutionTime().isZero() ? Long.MAX_VALUE
        : startNanos + settings.maxExecutionTime().toNanos();
    while (!stopRequested) {
      if (System.nanoTime() >= deadline) {
        stop(StopReason.TIME);
        return;
      }
      if (startFailure.get() != null || crashed.get() > 0) {
        LOG.error("Client threads failed; stopping.");
        stop(StopReason.FAILED);
        return;
      }
      if (mainThreadsEnded()) {
        stop(StopReason.COMPLETED);  // the workload ended every main thread (doTransaction returned false)
        return;
      }
      StepController.Decision decision;
      try {
        decision = steps.nextDecision(100, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        stop(StopReason.INTERRUPTED);
        return;
      }
      if (decision instanceof StepController.Stop stopDecision) {
        stop(stopDecision.reason());
      } else if (decision instanceof StepController.NextStep next) {
        if (sweepGroup != null) {
          groupPacers.get(sweepGroup.name()).setRate(next.offeredRate() / sweepGroup.threads());
        } else if (settings.ramp().mode() == RampMode.THREADS) {
          mainThreads.addAll(startWorkers(next.threads() - mainThreads.size(), 0, pacer, settings.measurementInterval()));
        } else {
          pacer.setRate(next.offeredRate() / mainThreads.size());
        }
      }
    }
  }

  /** Work on the server before the client threads start (the first contact, preparation). */
  @FunctionalInterface
  private interface ServerWork {
    void run() throws DBException;
  }

  /**
   * Runs work on the server before the workers start, interruptible by {@link #stop}: a Ctrl-C while
   * the first contact waits ends it at once, not at the end of the wait. The interrupt is cleared
   * before anything is written (an interrupted file channel would close).
   */
  private void beforeWorkers(ServerWork work) throws DBException {
    if (!enterServerWait()) {
      throw new DBException("stopped before the start");
    }
    try {
      work.run();
    } finally {
      leaveServerWait();
    }
  }

  /** From now on a stop interrupts this thread; false when the phase was stopped already. */
  private boolean enterServerWait() {
    synchronized (interruptLock) {
      waitingOnServer = Thread.currentThread();
      return !stopRequested;
    }
  }

  /** No more interrupts; one that came is cleared (the stop itself is in stopRequested). */
  private void leaveServerWait() {
    synchronized (interruptLock) {
      waitingOnServer = null;
      Thread.interrupted();
    }
  }

  /** After a stop (Ctrl-C, SIGTERM) before the start: the folder says so, and so does the one line. */
  private void interruptedBeforeStart(RunFolder folder, RunRecord record) throws StartFailedException, IOException {
    if (stopReason.get() != StopReason.INTERRUPTED) {
      return;
    }
    record.put("status", "interrupted before the start").put("stopReason", StopReason.INTERRUPTED.label());
    folder.writeJson(RunFolder.RUN_JSON, record.asMap());
    throw new StartFailedException("Interrupted before the start (while the binding reached its server or prepared it):"
        + " nothing was measured; see " + folder.path().resolve(RunFolder.RUN_JSON) + ".", null);
  }

  /** How long the longest operation in progress has waited (a stalled server: every thread waits). */
  private long longestWaitMs() {
    long now = System.nanoTime();
    return workers.stream().mapToLong(w -> w.waitingMs(now)).max().orElse(0);
  }

  /** True when no main thread runs any more (thread groups run until the run stops). */
  private boolean mainThreadsEnded() {
    return mainThreads.stream().noneMatch(Thread::isAlive);
  }

  /** The plateau: the peak step's window of a ramp, or the whole run, less the warm-up. */
  private static Plateau plateau(Timeline timeline, RampResult ramp, long warmupSeconds) {
    List<Timeline.Point> points = timeline.points();
    if (points.isEmpty()) {
      return null;
    }
    if (ramp == null) {
      return Plateau.of(points, 1, points.get(points.size() - 1).second(), warmupSeconds);
    }
    StepRecord peak = ramp.peak();
    return peak == null ? null : Plateau.of(points, peak.startSecond(), peak.endSecond(), warmupSeconds);
  }

  private void awaitReady() {
    try {
      ready.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stop(StopReason.INTERRUPTED);
    }
  }

  private void waitForEnd(long startNanos) {
    long deadline = settings.maxExecutionTime().isZero() ? Long.MAX_VALUE
        : startNanos + settings.maxExecutionTime().toNanos();
    for (Thread thread : mainThreads) {
      while (thread.isAlive() && !stopRequested) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          stop(StopReason.TIME);
          return;
        }
        try {
          thread.join(Math.max(1, Math.min(TimeUnit.NANOSECONDS.toMillis(left), 100)));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          stop(StopReason.INTERRUPTED);
          return;
        }
      }
    }
  }

  /** Whether the phase ends now rather than at its count or time: Ctrl-C, SIGTERM or the give-up watch. */
  private static boolean cutOff(StopReason reason) {
    return reason == StopReason.INTERRUPTED || reason == StopReason.GIVEUP;
  }

  private boolean joinWorkers(Duration grace) {
    long deadline = System.nanoTime() + grace.toNanos();
    int inOperation = 0;
    int inBinding = 0;
    for (int i = 0; i < threads.size(); i++) {
      Thread thread = threads.get(i);
      try {
        thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (thread.isAlive()) {
        if (workers.get(i).abandonInFlight()) {
          inOperation++;
        } else {
          inBinding++;
        }
      }
    }
    // One line for all of them: a stalled server holds every thread (forty lines would say one thing).
    if (inOperation > 0) {
      LOG.warn("{} of {} threads were still inside an operation {} ms after the stop; those operations are counted"
          + " as errors.", inOperation, threads.size(), grace.toMillis());
    }
    if (inBinding > 0) {
      LOG.warn("{} of {} threads were still inside their binding (cleanup: data it buffered may be lost) {} ms after"
          + " the stop.", inBinding, threads.size(), grace.toMillis());
    }
    return inOperation + inBinding == 0;
  }

  private void checkContracts() throws ConfigException {
    if (!(workload instanceof RequiresContracts requires)) {
      return;
    }
    Set<String> missing = new LinkedHashSet<>();
    for (Class<?> contract : requires.requiredContracts(settings.phase() == Phase.LOAD)) {
      if (!contract.isAssignableFrom(binding.type())) {
        missing.add(contract.getSimpleName());
      }
    }
    if (!missing.isEmpty()) {
      throw new ConfigException("Binding '" + binding.name() + "' (" + binding.type().getName() + ") does not implement "
          + String.join(", ", missing) + ", which workload " + workload.getClass().getSimpleName() + " needs.");
    }
  }

  private void cleanupWorkload() {
    try {
      workload.cleanup();
    } catch (Exception e) {
      LOG.error("The workload failed in cleanup: {}", describe(e), e);
    }
  }

  static String describe(Throwable e) {
    String message = e.getMessage();
    return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
  }
}
