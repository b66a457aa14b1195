package org.geoshard.harness.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.geoshard.harness.measure.IntervalSampler;
import org.geoshard.harness.measure.LatencyStats;
import org.geoshard.harness.measure.Meters;
import org.geoshard.harness.measure.Totals;
import org.junit.jupiter.api.Test;

class BatchLedgerTest {

  /** What the meters counted while {@code actions} ran on a ledger. */
  private static LatencyStats counted(String operation, Consumer<BatchLedger> actions) {
    Meters meters = new Meters(1);
    IntervalSampler sampler = new IntervalSampler(meters, 1, TimeUnit.HOURS, () -> 1);
    Totals totals = new Totals();
    sampler.addListener(totals);
    sampler.start();
    actions.accept(new BatchLedger(meters, 0));
    sampler.stop();
    return totals.perOperation().getOrDefault(operation, LatencyStats.of(org.geoshard.harness.measure.OperationMeter.newHistogram(), 0));
  }

  @Test
  void bufferedRecordsCountOnlyWhenTheirBatchSettles() {
    BatchLedger[] kept = new BatchLedger[1];
    LatencyStats before = counted("INSERT", ledger -> {
      for (int i = 0; i < 10; i++) {
        ledger.buffered("INSERT", 5);
      }
      kept[0] = ledger;
    });
    assertThat(before.count()).isZero();
    assertThat(kept[0].held()).isEqualTo(10);

    LatencyStats after = counted("INSERT", ledger -> {
      for (int i = 0; i < 10; i++) {
        ledger.buffered("INSERT", 5);
      }
      ledger.settled("INSERT", 7, 3);
    });
    assertThat(after.count()).isEqualTo(10);
    assertThat(after.errors()).isEqualTo(3);
  }

  @Test
  void aBatchSettledBeforeItsLastCallReturnedCreditsThatCall() {
    // The call that fills the batch settles all of it, its own record included, then answers BATCHED_OK.
    LatencyStats stats = counted("HISTORY_INSERT", ledger -> {
      ledger.buffered("HISTORY_INSERT", 1);
      ledger.buffered("HISTORY_INSERT", 1);
      ledger.settled("HISTORY_INSERT", 0, 3);
      assertThat(ledger.held()).isZero();
      ledger.buffered("HISTORY_INSERT", 900);
      assertThat(ledger.held()).isZero();
    });
    assertThat(stats.count()).isEqualTo(3);
    assertThat(stats.errors()).isEqualTo(3);
    assertThat(stats.failed().maxUs()).as("failed records keep their latencies apart").isBetween(899L, 901L);
  }

  @Test
  void recordsNeverSettledAreErrorsAfterCleanup() {
    long[][] left = new long[1][];
    LatencyStats stats = counted("INSERT", ledger -> {
      for (int i = 0; i < 200; i++) {  // beyond the ring's first capacity
        ledger.buffered("INSERT", i);
      }
      ledger.settled("INSERT", 150, 0);
      ledger.settled("OTHER", 2, 0);  // more than was buffered under OTHER: a binding's mistake
      left[0] = ledger.abandon();
    });
    assertThat(stats.count()).isEqualTo(200);
    assertThat(stats.errors()).isEqualTo(50);
    assertThat(left[0]).containsExactly(50, 2);
  }

  @Test
  void negativeCountsAreRefused() {
    BatchLedger ledger = new BatchLedger(new Meters(1), 0);
    assertThatThrownBy(() -> ledger.settled("INSERT", -1, 0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void anAbandonedLedgerCountsLaterRecordsAsErrorsAndIgnoresLateSettlements() {
    LatencyStats stats = counted("INSERT", ledger -> {
      for (int i = 0; i < 5; i++) {
        ledger.buffered("INSERT", 1);
      }
      assertThat(ledger.abandon()).containsExactly(5, 0);
      ledger.settled("INSERT", 5, 0);  // the flush that outlived the grace reports after all
      ledger.buffered("INSERT", 1);  // a record buffered after the abandon: never written as far as anyone knows
      assertThat(ledger.held()).isZero();
      assertThat(ledger.abandon()).containsExactly(0, 0);
    });
    assertThat(stats.count()).isEqualTo(6);
    assertThat(stats.errors()).isEqualTo(6);
  }
}
