package org.geoshard.harness.run;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.geoshard.harness.measure.StopReason;
import org.geoshard.harness.output.RunResult;
import org.geoshard.harness.api.ThreadGroups.ThreadGroup;
import org.geoshard.harness.measure.IntervalSampler;
import org.geoshard.harness.measure.Meters;
import org.geoshard.harness.measure.Totals;
import org.geoshard.harness.observe.StageListeners;
import org.geoshard.harness.output.HlogWriters;
import org.geoshard.harness.output.Progress;
import org.geoshard.harness.output.StatusReporter;
import org.geoshard.harness.output.TimeseriesWriter;
import org.geoshard.harness.ramp.RampController;
import org.geoshard.harness.ramp.RampMode;
import org.geoshard.harness.ramp.RampResult;
import org.geoshard.harness.ramp.RampSettings;
import org.geoshard.harness.ramp.StepController;
import org.geoshard.harness.ramp.StepRecord;
import org.geoshard.harness.ramp.SweepController;
import org.geoshard.harness.stats.Plateau;
import org.geoshard.harness.stats.Timeline;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a phase measures, second by second: the interval sampler and everything that listens to it
 * (totals, the timeline, the steps of a ramp or sweep, the time series and histogram files, the give-up
 * watch, the status lines), and the phase's result made of them at the end.
 */
final class PhaseMeasurement {
  /** Logged as the runner: the user's log lines name the runner, as before the measurement had a class. */
  private static final Logger LOG = LoggerFactory.getLogger(Runner.class);

  private final RunSettings settings;
  private final PhasePlan plan;
  private final RunRecorder recorder;
  private final IntervalSampler sampler;
  private final Totals totals = new Totals();
  private final Timeline timeline = new Timeline();
  /** The ramp's or the sweep's steps, or null for a phase without steps. */
  private final StepController steps;
  private final long startEpochMs;

  private PhaseMeasurement(RunSettings settings, PhasePlan plan, Meters meters, RunRecorder recorder,
      ClientThreads clients, StageListeners stageListeners, StopSignal stop) throws IOException {
    this.settings = settings;
    this.plan = plan;
    this.recorder = recorder;
    RampSettings ramp = settings.ramp();
    ThreadGroup sweepGroup = plan.sweepGroup();
    this.steps = ramp.mode() != RampMode.NONE ? new RampController(ramp)
        : sweepGroup != null ? new SweepController(sweepGroup, ramp.rule()) : null;
    this.sampler = new IntervalSampler(meters, 1, TimeUnit.SECONDS, clients::running);
    sampler.addListener(totals);
    sampler.addListener(timeline);
    if (steps != null) {
      sampler.addListener(steps);
    }
    sampler.addListener(new TimeseriesWriter(recorder.path()));
    startEpochMs = sampler.start();
    stageListeners.clockStarted(startEpochMs);
    sampler.addListener(new HlogWriters(recorder.path(), startEpochMs));
    // A measured phase only: unmeasured operations report neither successes nor failures.
    if (settings.measured() && !settings.giveUp().isZero()) {
      sampler.addListener(new GiveUpWatch(settings.giveUp(), startEpochMs, clients::longestWaitMs,
          () -> stop.stop(StopReason.GIVEUP)));
    }
    if (!settings.statusInterval().isZero()) {
      // The plan counts the workload's calls (records in a load), which may each measure several operations.
      int planners = plan.mainThreads();
      Progress progress = steps != null ? Progress.ofSteps(steps::progress)
          : Progress.of(plan.plannedOperations(), settings.maxExecutionTime(), plan.load() ? "records" : "operations")
              .counting(() -> clients.calls(planners));
      sampler.addListener(new StatusReporter(settings.statusInterval(), startEpochMs, progress));
    }
    recorder.started(startEpochMs);
  }

  /** Starts the phase's clock: from now on every second is sampled. */
  static PhaseMeasurement start(RunSettings settings, PhasePlan plan, Meters meters, RunRecorder recorder,
      ClientThreads clients, StageListeners stageListeners, StopSignal stop) throws IOException {
    return new PhaseMeasurement(settings, plan, meters, recorder, clients, stageListeners, stop);
  }

  /** The steps to follow, or null when the phase has none. */
  StepController steps() {
    return steps;
  }

  long startEpochMs() {
    return startEpochMs;
  }

  Totals totals() {
    return totals;
  }

  /** Takes the last interval and stops the clock. */
  void stop() {
    sampler.stop();
  }

  /** The sampler's rounds: how many, their mean and longest in nanoseconds. */
  long[] cost() {
    return sampler.cost();
  }

  /** The phase's result, after {@link #stop()} and after its threads ended. */
  RunResult result(StopReason reason, long runtimeMs, ClientThreads clients, String preparationFailure) {
    long operations = settings.measured() ? totals.operations() : clients.operationsDone();
    // Unmeasured runs (the harness gauging itself) know no errors: every operation counts.
    long succeeded = settings.measured() ? totals.succeeded() : operations;
    RampResult stepResult = steps == null ? null : steps.finish();
    RampResult rampResult = settings.ramp().mode() != RampMode.NONE ? stepResult : null;
    long warmupSeconds = settings.ramp().warmup().toSeconds();
    Plateau plateau = plateau(timeline, rampResult, warmupSeconds);
    // A load has no plateau worth a word (it ends when the data is in): only a run's missing one is.
    if (plateau == null && rampResult == null && !timeline.points().isEmpty() && !plan.load()) {
      LOG.warn("The run lasted {} s, no longer than {} ({}): summary.json has no plateau statistics; run longer"
          + " or set a shorter {}.", runtimeMs / 1000, RampSettings.STATS_WARMUP, settings.ramp().warmupQuoted(),
          RampSettings.STATS_WARMUP);
    }
    ThreadGroup sweepGroup = plan.sweepGroup();
    return new RunResult(recorder.path(), reason, runtimeMs, operations, totals.errors(),
        succeeded * 1000.0 / runtimeMs, clients.started(), clients.crashed(), totals.overall(), totals.perOperation(),
        rampResult, plateau, preparationFailure,
        sweepGroup == null ? null : new RunResult.Sweep(sweepGroup.name(), stepResult));
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
}
