package org.geoshard.harness.ramp;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.geoshard.harness.measure.Interval;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every step controller does: add intervals to the current step's window, close the window
 * after {@code stepIntervals} full intervals, judge it with the rule, and queue what comes next.
 * A short interval is the run's last (taken at the stop): its step is partial and never judged.
 */
abstract class SteppedController implements StepController {
  private static final Logger LOG = LoggerFactory.getLogger(SteppedController.class);
  /** Intervals shorter than this are the cut-off end of a run, not a full second. */
  static final long SHORT_INTERVAL_MS = 500;

  private final RampMode mode;
  private final SlaRule rule;
  private final long stepIntervals;
  private final BlockingQueue<Decision> decisions = new LinkedBlockingQueue<>();
  private final List<StepRecord> steps = new ArrayList<>();
  private Window window = new Window();
  private boolean finished;

  SteppedController(RampMode mode, SlaRule rule, long stepIntervals) {
    this.mode = mode;
    this.rule = rule;
    this.stepIntervals = stepIntervals;
  }

  /** Threads of the step in progress. */
  abstract int threads();

  /** The offered rate of the step in progress, or null in a closed loop. */
  abstract Double offered();

  /** What follows a judged step; may change {@link #threads()} and {@link #offered()}. */
  abstract Decision next(StepRecord step);

  /** How many steps there will be, or 0 when the rule decides. */
  int plannedSteps() {
    return 0;
  }

  @Override
  public synchronized String progress() {
    StringBuilder text = new StringBuilder("step ").append(steps.size() + 1);
    if (plannedSteps() > 0) {
      text.append(" of ").append(plannedSteps());
    }
    text.append(", ").append(threads()).append(" threads");
    Double offered = offered();
    if (offered != null) {
      text.append(", offered ").append(Math.round(offered)).append(" ops/s");
    }
    return text.toString();
  }

  @Override
  public synchronized void onInterval(Interval interval) {
    if (finished) {
      return;
    }
    window.add(interval);
    if (interval.durationMs() < SHORT_INTERVAL_MS || window.intervals() < stepIntervals) {
      return;
    }
    StepRecord step = window.close(steps.size() + 1, threads(), offered(), rule, true);
    steps.add(step);
    window = new Window();
    LOG.info("Step {}: {} threads{}, {} ops/s, p98 {} us, {}% within {} ms: {}", step.step(), step.threads(),
        step.offeredOpsPerSec() == null ? "" : ", offered " + Math.round(step.offeredOpsPerSec()) + " ops/s",
        Math.round(step.throughput()), step.p98Us(), Math.round(step.withinLatencyPercent() * 100) / 100.0,
        rule.latencyUs() / 1000, step.verdict().label());
    Decision decision = next(step);
    if (decision instanceof Stop) {
      finished = true;
    }
    decisions.add(decision);
  }

  @Override
  public Decision nextDecision(long timeout, TimeUnit unit) throws InterruptedException {
    return decisions.poll(timeout, unit);
  }

  @Override
  public synchronized RampResult finish() {
    if (!window.isEmpty()) {
      steps.add(window.close(steps.size() + 1, threads(), offered(), rule, false));
      window = new Window();
    }
    finished = true;
    return RampResult.of(mode, rule, steps);
  }
}
