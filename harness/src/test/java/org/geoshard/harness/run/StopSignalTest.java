package org.geoshard.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import org.geoshard.harness.measure.StopReason;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class StopSignalTest {
  @Test
  void theFirstReasonWinsAndOnlyCtrlCOrAGiveUpCutThePhaseOff() {
    StopSignal stop = new StopSignal();
    assertThat(stop.requested()).isFalse();
    assertThat(stop.reason()).isNull();
    stop.stop(StopReason.TIME);
    stop.stop(StopReason.INTERRUPTED);
    assertThat(stop.requested()).isTrue();
    assertThat(stop.reason()).isEqualTo(StopReason.TIME);
    assertThat(stop.cutOff()).as("a phase that ran out of time ends with the whole grace").isFalse();

    StopSignal interrupted = new StopSignal();
    interrupted.stop(StopReason.INTERRUPTED);
    assertThat(interrupted.cutOff()).isTrue();
    StopSignal gaveUp = new StopSignal();
    gaveUp.stop(StopReason.GIVEUP);
    assertThat(gaveUp.cutOff()).isTrue();
  }

  @Test
  void theEndOfThePhaseStopsEverythingWithoutAReason() {
    StopSignal stop = new StopSignal();
    AtomicInteger hooks = new AtomicInteger();
    stop.whenStopped(hooks::incrementAndGet);
    stop.endPhase();
    assertThat(stop.requested()).isTrue();
    assertThat(stop.reason()).as("the caller says completed").isNull();
    assertThat(hooks).hasValue(1);
  }

  @Test
  void aHookRegisteredAfterTheStopRunsAtOnce() {
    StopSignal stop = new StopSignal();
    stop.stop(StopReason.INTERRUPTED);
    AtomicBoolean ran = new AtomicBoolean();
    stop.whenStopped(() -> ran.set(true));
    assertThat(ran).isTrue();
  }

  @Test
  void aStopInterruptsTheWaitOnTheServerAndTheInterruptIsClearedAfterIt() throws Exception {
    StopSignal stop = new StopSignal();
    CountDownLatch waiting = new CountDownLatch(1);
    CompletableFuture<Boolean> interruptedAndCleared = CompletableFuture.supplyAsync(() -> {
      AtomicBoolean interrupted = new AtomicBoolean();
      stop.interruptibly(() -> {
        waiting.countDown();
        try {
          Thread.sleep(60_000);
        } catch (InterruptedException e) {
          interrupted.set(true);
          Thread.currentThread().interrupt();  // left set: the signal must clear it
        }
      });
      return interrupted.get() && !Thread.currentThread().isInterrupted();
    });
    assertThat(waiting.await(30, TimeUnit.SECONDS)).isTrue();
    stop.stop(StopReason.INTERRUPTED);
    assertThat(interruptedAndCleared.get(30, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void workThatMustNotStartAfterAStopDoesNot() throws Exception {
    StopSignal stop = new StopSignal();
    AtomicInteger runs = new AtomicInteger();
    assertThat(stop.interruptiblyUnlessStopped(runs::incrementAndGet)).isTrue();
    stop.stop(StopReason.INTERRUPTED);
    assertThat(stop.interruptiblyUnlessStopped(runs::incrementAndGet)).isFalse();
    assertThat(runs).hasValue(1);
    assertThat(Thread.currentThread().isInterrupted()).isFalse();
  }
}
