package org.geoshard.harness.ramp;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.geoshard.harness.measure.Interval;
import org.geoshard.harness.measure.IntervalListener;
import org.geoshard.harness.run.StopReason;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Judges each ramp step when its window is complete and tells the runner what to do next: add
 * threads (closed loop) or raise the rate (open loop), or stop, and why. Runs on the sampler's
 * thread; the runner takes the decisions on its own thread with {@link #nextDecision}.
 */
public final class RampController implements IntervalListener {
  private static final Logger LOG = LoggerFactory.getLogger(RampController.class);

  /** What the runner should do after a step. */
  public sealed interface Decision {
    /** Go on with this load: threads in a closed loop, or the offered rate in an open loop. */
    record NextStep(int threads, double offeredRate) implements Decision {
    }

    /** Stop the run. */
    record Stop(StopReason reason) implements Decision {
    }
  }

  /** Intervals shorter than this are the cut-off end of a run, not a full second. */
  static final long SHORT_INTERVAL_MS = 500;

  private final RampSettings settings;
  private final long stepIntervals;
  private final BlockingQueue<Decision> decisions = new LinkedBlockingQueue<>();
  private final List<StepRecord> steps = new ArrayList<>();
  private Window window = new Window();
  private int threads;
  private double rate;
  private boolean finished;

  public RampController(RampSettings settings) {
    this.settings = settings;
    this.stepIntervals = settings.interval().toSeconds();
    this.threads = settings.initialThreads(0);
    this.rate = settings.startRate();
  }

  public double initialRate() {
    return settings.startRate();
  }

  public int initialThreads() {
    return settings.initialThreads(0);
  }

  @Override
  public synchronized void onInterval(Interval interval) {
    if (finished) {
      return;
    }
    window.add(interval);
    // A short interval is the run's last (taken at the stop): its step is partial, judged in finish().
    if (interval.durationMs() < SHORT_INTERVAL_MS || window.intervals() < stepIntervals) {
      return;
    }
    StepRecord step = window.close(steps.size() + 1, threads, offered(), settings.rule(), true);
    steps.add(step);
    window = new Window();
    LOG.info("Step {}: {} threads{}, {} ops/s, p98 {} us, {}% within {} ms: {}", step.step(), step.threads(),
        step.offeredOpsPerSec() == null ? "" : ", offered " + Math.round(step.offeredOpsPerSec()) + " ops/s",
        Math.round(step.throughput()), step.p98Us(), Math.round(step.withinLatencyPercent() * 100) / 100.0,
        settings.rule().latencyUs() / 1000, step.verdict().label());
    decisions.add(next(step));
  }

  private Decision next(StepRecord step) {
    switch (step.verdict()) {
      case SLA:
        return stop(StopReason.SLA);
      case TIMEOUT:
        return stop(StopReason.TIMEOUT);
      case ERRORS:
        return stop(StopReason.ERRORS);
      default:
        break;
    }
    if (settings.mode() == RampMode.THREADS) {
      if (threads >= settings.maxThreads()) {
        return stop(StopReason.MAXTHREADS);
      }
      threads = Math.min(settings.maxThreads(), threads + settings.stepThreads());
    } else {
      if (settings.maxRate() > 0 && rate >= settings.maxRate()) {
        return stop(StopReason.MAXTHREADS);
      }
      rate = settings.maxRate() > 0 ? Math.min(settings.maxRate(), rate + settings.stepRate()) : rate + settings.stepRate();
    }
    return new Decision.NextStep(threads, rate);
  }

  private Decision stop(StopReason reason) {
    finished = true;
    return new Decision.Stop(reason);
  }

  private Double offered() {
    return settings.mode() == RampMode.RATE ? rate : null;
  }

  /** The next decision, or null if none came within the timeout. */
  public Decision nextDecision(long timeout, TimeUnit unit) throws InterruptedException {
    return decisions.poll(timeout, unit);
  }

  /** Closes the step in progress as partial (the run stopped within it) and returns the outcome. */
  public synchronized RampResult finish() {
    if (!window.isEmpty()) {
      steps.add(window.close(steps.size() + 1, threads, offered(), settings.rule(), false));
      window = new Window();
    }
    finished = true;
    return RampResult.of(settings.mode(), settings.rule(), steps);
  }
}
