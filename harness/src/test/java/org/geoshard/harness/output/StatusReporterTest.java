package org.geoshard.harness.output;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.geoshard.harness.measure.Interval;
import org.geoshard.harness.measure.IntervalSample;
import org.geoshard.harness.measure.OperationMeter;
import org.junit.jupiter.api.Test;

/** Status lines from scripted intervals: no clock, no threads, so nothing here depends on timing. */
class StatusReporterTest {
  private static final long START = 1_000_000L;

  private static Interval interval(long index, long operations) {
    Histogram h = OperationMeter.newHistogram();
    h.recordValueWithCount(1_000, operations);
    return new Interval(index, START + (index - 1) * 1000, START + index * 1000, 4,
        List.of(IntervalSample.of("INSERT", h, OperationMeter.newHistogram())));
  }

  private static StatusReporter fed(Progress progress, int seconds, long perSecond) {
    StatusReporter reporter = new StatusReporter(Duration.ofHours(1), START, progress);
    for (int i = 1; i <= seconds; i++) {
      reporter.onInterval(interval(i, perSecond));
    }
    return reporter;
  }

  @Test
  void aPhaseOfKnownSizeSaysTheShareDoneAndTheTimeLeft() {
    // 1,000 of 4,000 inserts in 10 s: 25%, 100 ops/s, 30 s left.
    String line = fed(Progress.of(4_000, Duration.ZERO), 10, 100).line(START + 10_000, 4);
    assertThat(line).startsWith("10 sec: 1,000 operations; 100 current ops/sec; 4 threads; 0 errors;"
        + " 25% of 4,000 done, 30 s left at 100 ops/sec on average [INSERT: count=1000");
  }

  @Test
  void aTimeLimitEndsTheEstimateIfSooner() {
    assertThat(Progress.of(1_000_000, Duration.ofSeconds(20)).describe(1_000, 10_000))
        .isEqualTo("0.1% of 1,000,000 done, 10 s left at 100 ops/sec on average");
    assertThat(Progress.of(0, Duration.ofMinutes(10)).describe(5, 150_000))
        .isEqualTo("25% of 10 min 0 s done, 7 min 30 s left");
    assertThat(Progress.of(100, Duration.ZERO).describe(0, 5_000)).isEqualTo("0% of 100 done, time left unknown");
    assertThat(Progress.of(0, Duration.ZERO).describe(10, 1_000)).isNull();
  }

  @Test
  void durationsReadAsPeopleSayThem() {
    assertThat(Progress.duration(45_000)).isEqualTo("45 s");
    assertThat(Progress.duration(185_000)).isEqualTo("3 min 5 s");
    assertThat(Progress.duration(7_800_000)).isEqualTo("2 h 10 min");
  }

  @Test
  void aRampOrSweepSaysItsStep() {
    String line = fed(Progress.ofSteps(() -> "step 2 of 5, 4 threads, offered 400 ops/s"), 3, 10).line(START + 3_000, 4);
    assertThat(line).contains("0 errors; step 2 of 5, 4 threads, offered 400 ops/s [INSERT");
    assertThat(fed(Progress.none(), 3, 10).line(START + 3_000, 4)).contains("0 errors [INSERT");
  }
}
