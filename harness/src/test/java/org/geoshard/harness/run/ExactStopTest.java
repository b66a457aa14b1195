package org.geoshard.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.geoshard.harness.api.ThreadGroups;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.binding.NoopDB;
import org.geoshard.harness.measure.StopReason;
import org.geoshard.harness.output.RunResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.DB;
import site.ycsb.Workload;

/**
 * No operation starts after the stop, in every mode that waits for an intended start. The clock is
 * injected: the stop is requested from inside a thread's wait for its next slot (the moment the old
 * code let one more operation through), and a thread that waited after the stop must start nothing.
 */
class ExactStopTest {
  /** The ticker of the test running now (the workload reads it; tests of a class run one at a time). */
  static volatile StopInsideWait current;

  @TempDir
  Path dir;

  /**
   * A clock that jumps instead of sleeping: each wait moves it on by what was asked (plus a real
   * millisecond, so that no thread spins). On the {@code stopAtPark}th wait it stops the runner,
   * and it remembers every thread that waited while the stop was requested.
   */
  static final class StopInsideWait implements Ticker {
    private final int stopAtPark;
    private final AtomicLong offset = new AtomicLong();
    private final AtomicInteger parks = new AtomicInteger();
    private final Set<Thread> waitedAfterStop = ConcurrentHashMap.newKeySet();
    final AtomicLong late = new AtomicLong();
    final AtomicLong started = new AtomicLong();
    volatile Runner runner;

    StopInsideWait(int stopAtPark) {
      this.stopAtPark = stopAtPark;
    }

    @Override
    public long nanoTime() {
      return System.nanoTime() + offset.get();
    }

    @Override
    public void park(long nanos) {
      if (parks.incrementAndGet() == stopAtPark) {
        runner.stop(StopReason.TIME);
      }
      if (runner.stopRequested()) {
        waitedAfterStop.add(Thread.currentThread());
      }
      offset.addAndGet(nanos);
      LockSupport.parkNanos(1_000_000L);
    }

    /** Called as each operation starts. */
    void operationStarts() {
      started.incrementAndGet();
      if (waitedAfterStop.contains(Thread.currentThread())) {
        late.incrementAndGet();
      }
    }
  }

  /** Test helper: every operation reports its start; {@code test.group.rates} adds a paced group of 2 threads. */
  public static final class Probe extends Workload implements ThreadGroups {
    private List<ThreadGroup> groups = List.of();

    @Override
    public void init(Properties p) {
      String rates = p.getProperty("test.group.rates");
      if (rates != null) {
        groups = List.of(new ThreadGroup("paced", 2, Arrays.stream(rates.split(",")).map(Double::valueOf).toList(),
            Duration.ofSeconds(1)));
      }
    }

    @Override
    public List<ThreadGroup> threadGroups() {
      return groups;
    }

    @Override
    public boolean doInsert(DB db, Object state) {
      current.operationStarts();
      return db.insert("t", "k", new java.util.HashMap<>()).isOk();
    }

    @Override
    public boolean doTransaction(DB db, Object state) {
      current.operationStarts();
      return db.read("t", "k", null, new java.util.HashMap<>()).isOk();
    }
  }

  private RunResult run(Phase phase, int stopAtPark, String... pairs) throws Exception {
    Properties p = new Properties();
    p.setProperty("workload", Probe.class.getName());
    p.setProperty("status.interval", "0");
    p.setProperty("maxexecutiontime", "120");  // a backstop only: the ticker stops the run long before
    p.setProperty("results.dir", dir.resolve("run").toString());
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    StopInsideWait ticker = new StopInsideWait(stopAtPark);
    current = ticker;
    Runner runner = new Runner(RunSettings.fromProperties(phase, p, "stop"), p, new Binding("noop", NoopDB.class), dir)
        .ticker(ticker);
    ticker.runner = runner;
    RunResult result = runner.execute();
    assertThat(result.stopReason()).isEqualTo(StopReason.TIME);
    assertThat(ticker.started.get()).as("operations before the stop").isPositive();
    assertThat(ticker.late.get()).as("operations started by a thread that waited after the stop").isZero();
    return result;
  }

  @Test
  void aPacedRunStartsNothingAfterTheStop() throws Exception {
    // The case: one slot per 1000 s; the stop comes inside the wait for the second.
    RunResult result = run(Phase.RUN, 1, "target", "0.001", "threadcount", "1");
    assertThat(result.operations()).isEqualTo(1);
  }

  @Test
  void aPacedRunMeasuredFromTheIntendedStartRecordsNoExtraOperation() throws Exception {
    RunResult result = run(Phase.RUN, 1, "target", "0.001", "threadcount", "1", "measurement.interval", "intended");
    assertThat(result.operations()).isEqualTo(1);
    assertThat(result.perOperation().get("READ").count()).isEqualTo(1);
  }

  @Test
  void aPacedLoadStartsNothingAfterTheStop() throws Exception {
    run(Phase.LOAD, 50, "target", "1000", "threadcount", "4", "recordcount", "1000000");
  }

  @Test
  void aRateRampStartsNothingAfterTheStop() throws Exception {
    // Every one of the 8 threads waits for its slot when the stop comes: the old code let each run one more.
    run(Phase.RUN, 40, "ramp.mode", "rate", "ramp.rate.start", "800", "ramp.rate.threads", "8",
        "ramp.interval", "60", "sla.latency.ms", "60000", "sla.timeout.ms", "60000");
  }

  @Test
  void aPacedThreadGroupStartsNothingAfterTheStop() throws Exception {
    // An open loop beside unpaced main threads; its rate steps as a sweep would, including a pause (rate 0).
    run(Phase.RUN, 30, "threadcount", "1", "target", "100", "test.group.rates", "200,0,200");
  }

  @Test
  void aSweepStartsNothingAfterTheStop() throws Exception {
    run(Phase.RUN, 30, "threadcount", "1", "target", "100", "test.group.rates", "200,400,800",
        "measurement.interval", "intended");
  }
}
