package org.geoshard.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import org.geoshard.harness.measure.StopReason;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.geoshard.harness.binding.NoopDB;
import org.geoshard.harness.measure.Interval;
import org.geoshard.harness.ramp.RampResult;
import org.geoshard.harness.ramp.StepController;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PhaseDriverTest {
  private static final long T0 = 5_000_000_000L;
  private final StopSignal stop = new StopSignal();
  private final ManualTicker clock = new ManualTicker(T0);
  private ClientThreads clients;

  @AfterEach
  void end() {
    stop.stop(StopReason.COMPLETED);
    if (clients != null) {
      clients.join(Duration.ofSeconds(30));
    }
  }

  /** Gives the decisions it was handed, one per call, then none (the step goes on). */
  static final class Scripted implements StepController {
    private final Deque<Decision> decisions;
    /** Called before each decision is asked for. */
    Runnable beforeEach = () -> { };

    Scripted(Decision... decisions) {
      this.decisions = new ArrayDeque<>(List.of(decisions));
    }

    @Override
    public Decision nextDecision(long timeout, TimeUnit unit) throws InterruptedException {
      beforeEach.run();
      Decision next = decisions.poll();
      if (next == null) {
        Thread.sleep(1);
      }
      return next;
    }

    @Override
    public RampResult finish() {
      return null;
    }

    @Override
    public void onInterval(Interval interval) {
    }
  }

  /** Main threads that read until the phase stops, started and let through the gate. */
  private ClientThreads running(int threads) {
    clients = ClientThreadsTest.threads(new ClientThreadsTest.Reads(0), new NoopDB(), stop, Ticker.SYSTEM);
    clients.startMain(threads, 0, new Pacer(0, threads, false), MeasurementInterval.OP);
    clients.awaitReady();
    clients.open();
    return clients;
  }

  @Test
  void eachStepIsAppliedInOrderUntilTheStepsSayStop() {
    List<StepController.NextStep> applied = new ArrayList<>();
    Scripted steps = new Scripted(new StepController.NextStep(4, 0), new StepController.NextStep(8, 0),
        new StepController.Stop(StopReason.SLA));
    new PhaseDriver(stop, running(1), clock, T0, Duration.ZERO).follow(steps, applied::add);
    assertThat(applied).extracting(StepController.NextStep::threads).containsExactly(4, 8);
    assertThat(stop.reason()).isEqualTo(StopReason.SLA);
  }

  @Test
  void thePhaseEndsAtItsTimeOnTheInjectedClock() {
    Scripted steps = new Scripted();
    steps.beforeEach = () -> clock.advanceMillis(400);
    List<StepController.NextStep> applied = new ArrayList<>();
    new PhaseDriver(stop, running(1), clock, T0, Duration.ofSeconds(2)).follow(steps, applied::add);
    assertThat(stop.reason()).isEqualTo(StopReason.TIME);
    assertThat(clock.nanoTime() - T0).as("stopped at the first look past the deadline")
        .isBetween(TimeUnit.SECONDS.toNanos(2), TimeUnit.MILLISECONDS.toNanos(2_400));
    assertThat(applied).isEmpty();
  }

  @Test
  void mainThreadsThatEndedCompleteThePhase() throws Exception {
    clients = ClientThreadsTest.threads(new ClientThreadsTest.Reads(0), new NoopDB(), stop, Ticker.SYSTEM);
    clients.startMain(2, 20, new Pacer(0, 2, false), MeasurementInterval.OP);
    clients.awaitReady();
    clients.open();
    new PhaseDriver(stop, clients, clock, T0, Duration.ZERO).follow(new Scripted(), step -> { });
    assertThat(stop.reason()).isEqualTo(StopReason.COMPLETED);
    assertThat(clients.operationsDone()).isEqualTo(20);
  }

  @Test
  void aCrashedThreadFailsThePhase() {
    clients = ClientThreadsTest.threads(new ClientThreadsTest.Reads(3), new NoopDB(), stop, Ticker.SYSTEM);
    clients.startMain(1, 0, new Pacer(0, 1, false), MeasurementInterval.OP);
    clients.startMain(1, 0, new Pacer(0, 1, false), MeasurementInterval.OP);
    clients.awaitReady();
    clients.open();
    new PhaseDriver(stop, clients, clock, T0, Duration.ZERO).follow(new Scripted(), step -> { });
    assertThat(stop.reason()).isEqualTo(StopReason.FAILED);
  }

  @Test
  void aStopFromElsewhereEndsTheWaitWithItsOwnReason() {
    ClientThreads threads = running(2);
    Thread stopper = new Thread(() -> {
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      stop.stop(StopReason.INTERRUPTED);
    });
    stopper.start();
    new PhaseDriver(stop, threads, clock, T0, Duration.ofSeconds(60)).awaitEnd();
    assertThat(stop.reason()).isEqualTo(StopReason.INTERRUPTED);
  }

  @Test
  void withoutStepsThePhaseEndsAtItsTimeOnTheInjectedClock() throws Exception {
    ClientThreads threads = running(1);
    Thread mover = new Thread(() -> {
      while (!stop.requested()) {
        clock.advanceMillis(50);
        try {
          Thread.sleep(5);
        } catch (InterruptedException e) {
          return;
        }
      }
    });
    mover.start();
    new PhaseDriver(stop, threads, clock, T0, Duration.ofSeconds(3)).awaitEnd();
    mover.join(30_000);
    assertThat(stop.reason()).isEqualTo(StopReason.TIME);
    assertThat(clock.nanoTime() - T0).isGreaterThanOrEqualTo(TimeUnit.SECONDS.toNanos(3));
  }

  @Test
  void withoutStepsMainThreadsThatEndedEndThePhaseWithoutAReason() {
    clients = ClientThreadsTest.threads(new ClientThreadsTest.Reads(0), new NoopDB(), stop, Ticker.SYSTEM);
    clients.startMain(2, 30, new Pacer(0, 2, false), MeasurementInterval.OP);
    clients.awaitReady();
    clients.open();
    new PhaseDriver(stop, clients, clock, T0, Duration.ofSeconds(60)).awaitEnd();
    assertThat(stop.reason()).as("the runner calls it completed").isNull();
    assertThat(clients.operationsDone()).isEqualTo(30);
  }
}
