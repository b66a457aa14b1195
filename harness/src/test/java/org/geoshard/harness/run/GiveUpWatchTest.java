package org.geoshard.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.geoshard.harness.measure.Interval;
import org.geoshard.harness.measure.IntervalSample;
import org.geoshard.harness.measure.OperationMeter;
import org.junit.jupiter.api.Test;

class GiveUpWatchTest {
  private static final long START = 1_000_000L;

  private static IntervalSample sample(String operation, long count, long errors) {
    Histogram h = OperationMeter.newHistogram();
    if (count > 0) {
      h.recordValueWithCount(100, count);
    }
    return new IntervalSample(operation, h, OperationMeter.newHistogram(), errors);
  }

  /** Second {@code n} (1-based) of the phase with the given samples. */
  private static Interval second(long n, IntervalSample... samples) {
    return new Interval(n, START + (n - 1) * 1000, START + n * 1000, 4, List.of(samples));
  }

  @Test
  void givesUpOnceAfterTheTimeWithFailuresAndNoSuccess() {
    AtomicInteger calls = new AtomicInteger();
    GiveUpWatch watch = new GiveUpWatch(Duration.ofSeconds(5), START, calls::incrementAndGet);
    watch.onInterval(second(1, sample("READ", 100, 0)));
    for (long s = 2; s <= 5; s++) {
      watch.onInterval(second(s, sample("READ", 50, 50)));  // every operation failed
    }
    assertThat(calls).hasValue(0);  // 4 s since the last success
    watch.onInterval(second(6, sample("READ", 50, 50)));
    assertThat(calls).hasValue(1);
    watch.onInterval(second(7, sample("READ", 50, 50)));
    assertThat(calls).hasValue(1);
  }

  @Test
  void aSuccessStartsTheTimeAfresh() {
    AtomicInteger calls = new AtomicInteger();
    GiveUpWatch watch = new GiveUpWatch(Duration.ofSeconds(3), START, calls::incrementAndGet);
    watch.onInterval(second(1, sample("READ", 10, 10)));
    watch.onInterval(second(2, sample("READ", 10, 10)));
    watch.onInterval(second(3, sample("READ", 10, 9)));  // one success: the database came back
    watch.onInterval(second(4, sample("READ", 10, 10)));
    watch.onInterval(second(5, sample("READ", 10, 10)));
    assertThat(calls).hasValue(0);
    watch.onInterval(second(6, sample("READ", 10, 10)));
    assertThat(calls).hasValue(1);
  }

  @Test
  void silenceWithoutFailuresAndTheCleanupNeverGiveUp() {
    AtomicInteger calls = new AtomicInteger();
    GiveUpWatch watch = new GiveUpWatch(Duration.ofSeconds(2), START, calls::incrementAndGet);
    for (long s = 1; s <= 10; s++) {
      // Slow operations still running, or a paused group: nothing ends, nothing fails.
      watch.onInterval(second(s, sample("CLEANUP", 1, 1)));
    }
    assertThat(calls).hasValue(0);
  }

  @Test
  void operationsThatWaitWithoutEndingGiveUpToo() {
    AtomicInteger calls = new AtomicInteger();
    AtomicLong longestWait = new AtomicLong();
    GiveUpWatch watch = new GiveUpWatch(Duration.ofSeconds(4), START, longestWait::get, calls::incrementAndGet);
    watch.onInterval(second(1, sample("READ", 100, 0)));
    for (long s = 2; s <= 4; s++) {
      longestWait.set((s - 1) * 1000);  // every thread inside a request since second 1: nothing ends
      watch.onInterval(second(s));
    }
    assertThat(calls).as("3 s since the last success").hasValue(0);
    longestWait.set(4000);
    watch.onInterval(second(5));
    assertThat(calls).hasValue(1);
    watch.onInterval(second(6));
    assertThat(calls).hasValue(1);
  }

  @Test
  void anOperationJustStartedIsNoStall() {
    AtomicInteger calls = new AtomicInteger();
    AtomicLong longestWait = new AtomicLong(1_000);  // a paced run's sparse operation, 1 s in progress
    GiveUpWatch watch = new GiveUpWatch(Duration.ofSeconds(4), START, longestWait::get, calls::incrementAndGet);
    for (long s = 1; s <= 10; s++) {
      watch.onInterval(second(s));
    }
    assertThat(calls).hasValue(0);
    longestWait.set(2_000);  // half of giveup.s, with nothing succeeded for longer than giveup.s
    watch.onInterval(second(11));
    assertThat(calls).hasValue(1);
  }

  @Test
  void aPhaseThatNeverSucceedsCountsFromItsStart() {
    AtomicInteger calls = new AtomicInteger();
    GiveUpWatch watch = new GiveUpWatch(Duration.ofSeconds(2), START, calls::incrementAndGet);
    watch.onInterval(second(1, sample("INSERT", 1, 1)));
    watch.onInterval(second(2, sample("INSERT", 1, 1)));
    assertThat(calls).hasValue(1);
  }

  @Test
  void zeroNeverGivesUp() {
    AtomicInteger calls = new AtomicInteger();
    GiveUpWatch watch = new GiveUpWatch(Duration.ZERO, START, calls::incrementAndGet);
    for (long s = 1; s <= 100; s++) {
      watch.onInterval(second(s, sample("INSERT", 1, 1)));
    }
    assertThat(calls).hasValue(0);
  }
}
