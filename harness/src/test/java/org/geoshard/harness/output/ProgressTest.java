package org.geoshard.harness.output;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ProgressTest {
  @Test
  void aLoadCountsRecordsNotTheOperationsEachRecordMeasures() {
    // 90,000 users, two measured operations each (History, LKL): at 58,500 users, 117,000 operations.
    AtomicLong records = new AtomicLong(58_500);
    Progress progress = Progress.of(90_000, Duration.ZERO, "records").counting(records::get);

    assertThat(progress.describe(117_000, 30_000))
        .isEqualTo("65% of 90,000 records done, 17 s left at 1950 records/sec on average");
    records.set(90_000);
    assertThat(progress.describe(180_000, 46_000)).startsWith("100% of 90,000 records done, 0 s left");
  }

  @Test
  void aRunNamesOperations() {
    assertThat(Progress.of(1_000, Duration.ZERO, "operations").describe(250, 10_000))
        .isEqualTo("25% of 1,000 operations done, 30 s left at 25 operations/sec on average");
  }
}
