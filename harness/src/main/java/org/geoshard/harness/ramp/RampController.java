package org.geoshard.harness.ramp;

import org.geoshard.harness.measure.StopReason;

/**
 * The max-throughput search: after each step that met the rule, more threads (closed loop) or a
 * higher offered rate (open loop); the first step that breaks the rule, or the last allowed step,
 * stops the run, and says why.
 */
public final class RampController extends SteppedController {
  private final RampSettings settings;
  private int threads;
  private double rate;

  public RampController(RampSettings settings) {
    super(settings.mode(), settings.rule(), settings.interval().toSeconds());
    this.settings = settings;
    this.threads = settings.initialThreads(0);
    this.rate = settings.startRate();
  }

  @Override
  synchronized int threads() {
    return threads;
  }

  @Override
  synchronized Double offered() {
    return settings.mode() == RampMode.RATE ? rate : null;
  }

  @Override
  synchronized Decision next(StepRecord step) {
    switch (step.verdict()) {
      case SLA:
        return new Stop(StopReason.SLA);
      case TIMEOUT:
        return new Stop(StopReason.TIMEOUT);
      case ERRORS:
        return new Stop(StopReason.ERRORS);
      case NOTHING:
        return new Stop(StopReason.NOTHING);
      default:
        break;
    }
    if (settings.mode() == RampMode.THREADS) {
      if (threads >= settings.maxThreads()) {
        return new Stop(StopReason.MAXTHREADS);
      }
      threads = Math.min(settings.maxThreads(), threads + settings.stepThreads());
    } else {
      if (settings.maxRate() > 0 && rate >= settings.maxRate()) {
        return new Stop(StopReason.MAXTHREADS);
      }
      rate = settings.maxRate() > 0 ? Math.min(settings.maxRate(), rate + settings.stepRate()) : rate + settings.stepRate();
    }
    return new NextStep(threads, rate);
  }
}
