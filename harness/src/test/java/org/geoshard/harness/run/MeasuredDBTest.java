package org.geoshard.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.geoshard.harness.api.FailureLog;
import org.geoshard.harness.api.Outcome;
import org.geoshard.harness.measure.IntervalSampler;
import org.geoshard.harness.measure.LatencyStats;
import org.geoshard.harness.measure.Meters;
import org.geoshard.harness.measure.Totals;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;

/**
 * The begin/end/abandon protocol of a measured call, on a clock that moves only when the test says:
 * whoever takes the operation in progress (its thread as the call returns, or the runner after the
 * stop's grace) counts it, and it is counted once.
 */
class MeasuredDBTest {
  private static final long T0 = 1_000_000_000L;
  private final ManualTicker ticker = new ManualTicker(T0);
  private final Meters meters = new Meters(1);

  /** A binding whose read runs {@code during} (the test's moment inside the call), then answers {@code status}. */
  static final class ScriptedDB extends DB {
    volatile Runnable during = () -> { };
    volatile Status status = Status.OK;

    @Override
    public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
      during.run();
      return status;
    }

    @Override
    public Status scan(String t, String k, int c, Set<String> f, java.util.Vector<java.util.HashMap<String, ByteIterator>> r) {
      return Status.OK;
    }

    @Override
    public Status update(String table, String key, Map<String, ByteIterator> values) {
      return Status.OK;
    }

    @Override
    public Status insert(String table, String key, Map<String, ByteIterator> values) {
      return Status.OK;
    }

    @Override
    public Status delete(String table, String key) {
      return Status.OK;
    }
  }

  private MeasuredDB measured(DB binding, MeasurementInterval interval) {
    return new MeasuredDB(binding, meters, 0, true, interval, new FailureLog(LoggerFactory.getLogger("measured-db-test")),
        ticker);
  }

  /** What the meters counted while {@code actions} ran. */
  private Map<String, LatencyStats> counted(Runnable actions) {
    IntervalSampler sampler = new IntervalSampler(meters, 1, TimeUnit.HOURS, () -> 1);
    Totals totals = new Totals();
    sampler.addListener(totals);
    sampler.start();
    actions.run();
    sampler.stop();
    return totals.perOperation();
  }

  @Test
  void aCallIsTimedOnTheInjectedClockAndCountedOnceWhenItEnds() {
    ScriptedDB binding = new ScriptedDB();
    MeasuredDB db = measured(binding, MeasurementInterval.OP);
    long[] startSeenInside = new long[1];
    binding.during = () -> {
      startSeenInside[0] = db.operationStartNanos();
      ticker.advanceMillis(5);
    };
    Map<String, LatencyStats> stats = counted(() -> db.read("t", "k", null, null));
    assertThat(startSeenInside[0]).as("in flight from its start").isEqualTo(T0);
    assertThat(db.operationStartNanos()).as("nothing in flight after it ended").isZero();
    assertThat(stats.get("READ").count()).isEqualTo(1);
    assertThat(stats.get("READ").errors()).isZero();
    assertThat(stats.get("READ").maxUs()).isBetween(4_990L, 5_010L);
    assertThat(db.abandonInFlight()).as("nothing left to abandon").isFalse();
  }

  @Test
  void anOperationAbandonedAfterTheCutOffIsAnErrorWithItsTimeSoFarAndItsLateEndIsNotCountedAgain() {
    ScriptedDB binding = new ScriptedDB();
    MeasuredDB db = measured(binding, MeasurementInterval.OP);
    boolean[] abandoned = new boolean[2];
    binding.during = () -> {
      ticker.advanceMillis(300);
      abandoned[0] = db.abandonInFlight();  // the runner, after the grace
      abandoned[1] = db.abandonInFlight();  // a second look finds nothing
      ticker.advanceMillis(700);  // then the server answers after all
    };
    Map<String, LatencyStats> stats = counted(() -> assertThat(db.read("t", "k", null, null)).isEqualTo(Status.OK));
    assertThat(abandoned).containsExactly(true, false);
    LatencyStats read = stats.get("READ");
    assertThat(read.count()).as("once: as the abandoned error, not again as a success").isEqualTo(1);
    assertThat(read.errors()).isEqualTo(1);
    assertThat(read.failed().maxUs()).as("the time it had taken at the abandon").isBetween(299_000L, 301_000L);
  }

  @Test
  void anAbandonFromAnotherThreadWhileTheCallHangsCountsItOnce() throws Exception {
    ScriptedDB binding = new ScriptedDB();
    MeasuredDB db = measured(binding, MeasurementInterval.OP);
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch answer = new CountDownLatch(1);
    binding.during = () -> {
      inside.countDown();
      try {
        answer.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    };
    Map<String, LatencyStats> stats = counted(() -> {
      Thread client = new Thread(() -> db.read("t", "k", null, null));
      client.start();
      try {
        assertThat(inside.await(30, TimeUnit.SECONDS)).isTrue();
        ticker.advanceMillis(2_000);
        assertThat(db.abandonInFlight()).isTrue();
        answer.countDown();
        client.join(30_000);
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    });
    assertThat(stats.get("READ").count()).isEqualTo(1);
    assertThat(stats.get("READ").errors()).isEqualTo(1);
    assertThat(db.operationStartNanos()).isZero();
  }

  @Test
  void aNestedCallIsPartOfTheOuterOneWhichIsAbandonedUnderItsOwnName() {
    ScriptedDB binding = new ScriptedDB();
    MeasuredDB db = measured(binding, MeasurementInterval.OP);
    boolean[] abandoned = new boolean[1];
    binding.during = () -> {
      ticker.advanceMillis(50);
      abandoned[0] = db.abandonInFlight();
    };
    Map<String, LatencyStats> stats = counted(() -> db.measure("GEO_NEAR", () -> db.read("t", "k", null, null)));
    assertThat(abandoned[0]).isTrue();
    assertThat(stats.get("GEO_NEAR").count()).isEqualTo(1);
    assertThat(stats.get("GEO_NEAR").errors()).as("abandoned, and not counted again as it returned").isEqualTo(1);
  }

  @Test
  void aClassifiedCallAbandonedIsAnErrorOfTheOperationItsClassifierNamesForAnError() {
    ScriptedDB binding = new ScriptedDB();
    MeasuredDB db = measured(binding, MeasurementInterval.OP);
    binding.during = () -> assertThat(db.abandonInFlight()).isTrue();
    Map<String, LatencyStats> stats = counted(() -> db.measure(() -> db.binding().read("t", "k", null, null),
        status -> new Outcome(status.isOk() ? "LKL_UPSERT" : "LKL_UPSERT_FAILED", status.isOk())));
    assertThat(stats).containsOnlyKeys("LKL_UPSERT_FAILED");
    assertThat(stats.get("LKL_UPSERT_FAILED").errors()).isEqualTo(1);
  }

  @Test
  void aPacedCallIsMeasuredFromItsIntendedStartAndTheSecondCallOfTheOperationFromItsOwn() {
    ScriptedDB binding = new ScriptedDB();
    MeasuredDB db = measured(binding, MeasurementInterval.INTENDED);
    binding.during = () -> ticker.advanceMillis(1);
    Map<String, LatencyStats> stats = counted(() -> {
      db.intendedStart(T0);
      ticker.advanceMillis(2);  // the thread started 2 ms late
      db.read("t", "k", null, null);
      db.read("t", "k", null, null);
    });
    assertThat(stats.get("READ").count()).isEqualTo(2);
    assertThat(stats.get("READ").maxUs()).as("1 ms of service after 2 ms late").isBetween(2_990L, 3_010L);
    assertThat(stats.get("READ").minUs()).as("the second call: its own 1 ms").isBetween(995L, 1_005L);
  }

  @Test
  void anExceptionOutOfTheBindingIsAnErrorOfItsOperationAndNothingStaysInFlight() {
    ScriptedDB binding = new ScriptedDB();
    MeasuredDB db = measured(binding, MeasurementInterval.OP);
    binding.during = () -> {
      throw new IllegalStateException("boom");
    };
    Map<String, LatencyStats> stats = counted(() -> assertThat(db.read("t", "k", null, null)).isEqualTo(Status.ERROR));
    assertThat(stats.get("READ").errors()).isEqualTo(1);
    assertThat(db.operationStartNanos()).isZero();
  }

  @Test
  void anUnmeasuredRunTracksAndCountsNothing() {
    ScriptedDB binding = new ScriptedDB();
    MeasuredDB db = new MeasuredDB(binding, meters, 0, false, MeasurementInterval.OP,
        new FailureLog(LoggerFactory.getLogger("measured-db-test")), ticker);
    long[] inFlight = {-1};
    binding.during = () -> inFlight[0] = db.operationStartNanos();
    Map<String, LatencyStats> stats = counted(() -> db.read("t", "k", null, null));
    assertThat(inFlight[0]).isZero();
    assertThat(stats).isEmpty();
  }
}
