package org.geoshard.harness.run;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.geoshard.harness.measure.StopReason;
import org.geoshard.harness.ramp.StepController;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows a started phase to its end: the main threads ending, {@code maxexecutiontime}, a stop from
 * elsewhere, or (a ramp, a sweep) the steps' decisions. Whatever ends it is given to the {@link StopSignal}.
 */
final class PhaseDriver {
  /** Logged as the runner: the user's log lines name the runner, as before the driver had a class. */
  private static final Logger LOG = LoggerFactory.getLogger(Runner.class);
  /** How often a phase with steps looks at its threads and its time between two decisions. */
  private static final long POLL_MILLIS = 100;

  private final StopSignal stop;
  private final ClientThreads clients;
  private final Ticker clock;
  private final long deadlineNanos;

  /**
   * @param startNanos when the phase's clock started, on {@code clock}
   * @param maxTime zero for no limit
   */
  PhaseDriver(StopSignal stop, ClientThreads clients, Ticker clock, long startNanos, Duration maxTime) {
    this.stop = stop;
    this.clients = clients;
    this.clock = clock;
    this.deadlineNanos = maxTime.isZero() ? Long.MAX_VALUE : startNanos + maxTime.toNanos();
  }

  /** Waits for the main threads' end, the time, or a stop. */
  void awaitEnd() {
    while (!stop.requested()) {
      long left = deadlineNanos - clock.nanoTime();
      if (left <= 0) {
        stop.stop(StopReason.TIME);
        return;
      }
      try {
        if (clients.awaitMainThreads(Math.max(1, Math.min(TimeUnit.NANOSECONDS.toMillis(left), POLL_MILLIS)))) {
          return;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        stop.stop(StopReason.INTERRUPTED);
        return;
      }
    }
  }

  /** Follows the steps' decisions ({@code next} applies one) until they stop, the time is up, or the phase is stopped. */
  void follow(StepController steps, Consumer<StepController.NextStep> next) {
    while (!stop.requested()) {
      if (clock.nanoTime() >= deadlineNanos) {
        stop.stop(StopReason.TIME);
        return;
      }
      if (clients.failed()) {
        LOG.error("Client threads failed; stopping.");
        stop.stop(StopReason.FAILED);
        return;
      }
      if (clients.mainThreadsEnded()) {
        stop.stop(StopReason.COMPLETED);  // the workload ended every main thread (doTransaction returned false)
        return;
      }
      StepController.Decision decision;
      try {
        decision = steps.nextDecision(POLL_MILLIS, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        stop.stop(StopReason.INTERRUPTED);
        return;
      }
      if (decision instanceof StepController.Stop stopDecision) {
        stop.stop(stopDecision.reason());
      } else if (decision instanceof StepController.NextStep step) {
        next.accept(step);
      }
    }
  }
}
