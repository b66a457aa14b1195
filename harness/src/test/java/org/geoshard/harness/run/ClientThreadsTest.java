package org.geoshard.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import org.geoshard.harness.measure.StopReason;
import java.time.Duration;
import java.util.HashMap;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.geoshard.harness.api.FailureLog;
import org.geoshard.harness.binding.NoopDB;
import org.geoshard.harness.measure.Meters;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.Workload;

class ClientThreadsTest {
  private final StopSignal stop = new StopSignal();
  private final ManualTicker schedule = new ManualTicker(1_000_000_000L);
  /** Released at the end of each test: a hung read must not outlive it. */
  private final CountDownLatch answer = new CountDownLatch(1);
  /** Counted down by each read of {@link HungDB} as it begins to wait. */
  private final CountDownLatch hung = new CountDownLatch(2);

  @AfterEach
  void release() {
    answer.countDown();
    stop.stop(StopReason.COMPLETED);
  }

  /** Reads once per call; {@code crashAt} throws out of that call (0: never). */
  static final class Reads extends Workload {
    private final int crashAt;

    Reads(int crashAt) {
      this.crashAt = crashAt;
    }

    @Override
    public Object initThread(Properties p, int threadId, int threadCount) {
      return new int[1];
    }

    @Override
    public boolean doInsert(DB db, Object state) {
      return doTransaction(db, state);
    }

    @Override
    public boolean doTransaction(DB db, Object state) {
      if (++((int[]) state)[0] == crashAt) {
        throw new IllegalStateException("a bug in the workload");
      }
      return db.read("t", "k", null, new HashMap<>()).isOk();
    }
  }

  /** A binding whose reads wait until the test ends (a server that stopped answering). */
  final class HungDB extends NoopDB {
    @Override
    public Status read(String table, String key, java.util.Set<String> fields,
        java.util.Map<String, site.ycsb.ByteIterator> result) {
      hung.countDown();
      try {
        answer.await(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return Status.OK;
    }
  }

  /** A binding that cannot reach its server. */
  static final class UnreachableDB extends NoopDB {
    @Override
    public void init() throws DBException {
      throw new DBException("no server");
    }
  }

  private ClientThreads threads(Workload workload, DB binding) {
    return threads(workload, binding, stop, schedule);
  }

  /** Client threads of {@code workload} on one shared {@code binding} instance, joined on the system's clock. */
  static ClientThreads threads(Workload workload, DB binding, StopSignal stop, Ticker schedule) {
    Meters meters = new Meters(1);
    FailureLog log = new FailureLog(LoggerFactory.getLogger("client-threads-test"));
    return new ClientThreads(workload, false, 3, (id, interval) -> new MeasuredDB(binding, meters, id, true, interval,
        log, schedule), new Properties(), stop, schedule, Ticker.SYSTEM);
  }

  private static Pacer unpaced() {
    return new Pacer(0, 1, false);
  }

  @Test
  void thePlannedOperationsAreSharedAsYcsbDoesAndNothingStartsBeforeTheGate() throws Exception {
    ClientThreads clients = threads(new Reads(0), new NoopDB());
    clients.startMain(3, 10, unpaced(), MeasurementInterval.OP);
    clients.awaitReady();
    Thread.sleep(50);
    assertThat(clients.calls(3)).as("behind the start gate").isZero();
    clients.open();
    assertThat(clients.awaitMainThreads(30_000)).isTrue();
    assertThat(clients.join(Duration.ofSeconds(30))).isTrue();
    assertThat(clients.operationsDone()).isEqualTo(10);
    assertThat(clients.calls(1)).as("the first thread takes the remainder").isEqualTo(4);
    assertThat(clients.started()).isEqualTo(3);
    assertThat(clients.mainThreadsEnded()).isTrue();
    assertThat(clients.failed()).isFalse();
  }

  @Test
  void aStopBeforeTheStartLetsTheThreadsEndWithoutAnOperation() {
    ClientThreads clients = threads(new Reads(0), new NoopDB());
    clients.startMain(2, 0, unpaced(), MeasurementInterval.OP);
    clients.awaitReady();
    stop.stop(StopReason.INTERRUPTED);  // the gate opens with it
    assertThat(clients.join(Duration.ofSeconds(30))).isTrue();
    assertThat(clients.operationsDone()).isZero();
  }

  @Test
  void aThreadThatCannotInitialiseIsReportedAndTheOthersStillCountAsReady() {
    ClientThreads clients = threads(new Reads(0), new UnreachableDB());
    clients.startMain(2, 0, unpaced(), MeasurementInterval.OP);
    clients.awaitReady();
    assertThat(clients.startFailure()).hasMessage("no server");
    assertThat(clients.failed()).isTrue();
    stop.stop(StopReason.FAILED);
    assertThat(clients.join(Duration.ofSeconds(30))).isTrue();
  }

  @Test
  void aCrashedThreadIsCountedAndTheOthersFinishTheirShare() throws Exception {
    ClientThreads clients = threads(new Reads(5), new NoopDB());
    clients.startMain(1, 100, unpaced(), MeasurementInterval.OP);
    clients.startMain(1, 100, unpaced(), MeasurementInterval.OP);
    clients.awaitReady();
    clients.open();
    assertThat(clients.awaitMainThreads(30_000)).isTrue();
    assertThat(clients.join(Duration.ofSeconds(30))).isTrue();
    assertThat(clients.crashed()).as("each thread crashes at its 5th call").isEqualTo(2);
    assertThat(clients.failed()).isTrue();
    assertThat(clients.operationsDone()).isEqualTo(8);
  }

  @Test
  void threadsStillInsideAnOperationAfterACutOffAreAbandonedWithinTheShortGrace() throws Exception {
    ClientThreads clients = threads(new Reads(0), new HungDB());
    clients.startMain(2, 0, unpaced(), MeasurementInterval.OP);
    clients.awaitReady();
    clients.open();
    assertThat(hung.await(30, TimeUnit.SECONDS)).isTrue();
    assertThat(clients.longestWaitMs()).isZero();
    schedule.advanceMillis(4_000);
    assertThat(clients.longestWaitMs()).as("on the schedule's clock").isEqualTo(4_000);
    stop.stop(StopReason.INTERRUPTED);
    long started = System.nanoTime();
    assertThat(clients.joinAfterStop(Duration.ofSeconds(30), stop.cutOff())).isFalse();
    assertThat(Duration.ofNanos(System.nanoTime() - started)).as("the abandon grace, not the whole one")
        .isLessThan(Duration.ofSeconds(15));
    assertThat(clients.mainThreads()).isEqualTo(2);
    assertThat(clients.started()).isEqualTo(2);
  }

  @Test
  void theWaitForTheMainThreadsSaysWhetherTheyEnded() throws Exception {
    ClientThreads clients = threads(new Reads(0), new NoopDB());
    clients.startMain(1, 0, unpaced(), MeasurementInterval.OP);
    clients.awaitReady();
    clients.open();
    assertThat(clients.awaitMainThreads(20)).as("a thread without a count runs until stopped").isFalse();
    stop.stop(StopReason.TIME);
    assertThat(clients.awaitMainThreads(30_000)).isTrue();
    assertThat(clients.join(Duration.ofSeconds(30))).isTrue();
    assertThat(clients.operationsDone()).isPositive();
  }
}
