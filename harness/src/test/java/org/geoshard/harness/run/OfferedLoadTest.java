package org.geoshard.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import org.geoshard.harness.measure.StopReason;
import java.time.Duration;
import java.util.Properties;
import org.geoshard.harness.api.ThreadGroups.ThreadGroup;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.binding.NoopDB;
import org.geoshard.harness.ramp.RampMode;
import org.geoshard.harness.ramp.StepController.NextStep;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import site.ycsb.workloads.CoreWorkload;

class OfferedLoadTest {
  private final StopSignal stop = new StopSignal();
  private final ClientThreads clients = ClientThreadsTest.threads(new ClientThreadsTest.Reads(0), new NoopDB(), stop,
      Ticker.SYSTEM);

  @AfterEach
  void end() {
    stop.stop(StopReason.COMPLETED);  // the threads never passed the gate: they end at once
    clients.join(Duration.ofSeconds(30));
  }

  private static PhasePlan plan(PhasePlanTest.Grouped workload, String... pairs) throws Exception {
    Properties p = new Properties();
    p.setProperty("workload", CoreWorkload.class.getName());
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return PhasePlan.of(RunSettings.fromProperties(Phase.RUN, p, "load"), workload, new Binding("noop", NoopDB.class));
  }

  private static ThreadGroup group(String name, int threads, Double... rates) {
    return new ThreadGroup(name, threads, java.util.List.of(rates), Duration.ofSeconds(10));
  }

  @Test
  void theMainThreadsAndEveryGroupStartAtTheirFirstRateSplitOverTheirThreads() throws Exception {
    PhasePlan plan = plan(new PhasePlanTest.Grouped(group("writers", 2, 100.0), group("paused", 1, 0.0, 50.0)),
        "operationcount", "10", "threadcount", "4", "target", "400");
    OfferedLoad load = new OfferedLoad(plan, RampMode.NONE, MeasurementInterval.OP);
    load.start(clients);
    assertThat(clients.started()).isEqualTo(4 + 2 + 1);
    assertThat(clients.mainThreads()).isEqualTo(4);
    assertThat(load.main().intervalNanos()).as("100 ops/s each").isEqualTo(10_000_000);
    assertThat(load.group("writers").intervalNanos()).as("50 ops/s each").isEqualTo(20_000_000);
    assertThat(load.group("paused").paused()).isTrue();
  }

  @Test
  void aSweepStepChangesOnlyTheSweepingGroup() throws Exception {
    PhasePlan plan = plan(new PhasePlanTest.Grouped(group("sweep", 2, 0.0, 200.0)), "operationcount", "10",
        "threadcount", "1");
    OfferedLoad load = new OfferedLoad(plan, RampMode.NONE, MeasurementInterval.OP);
    load.start(clients);
    load.step(new NextStep(2, 200), clients);
    assertThat(load.group("sweep").paused()).isFalse();
    assertThat(load.group("sweep").intervalNanos()).isEqualTo(10_000_000);
    assertThat(load.main().intervalNanos()).as("the main threads stay unpaced").isZero();
  }

  @Test
  void aRateRampOffersItsNextRateOverTheMainThreads() throws Exception {
    PhasePlan plan = plan(new PhasePlanTest.Grouped(), "operationcount", "0", "maxexecutiontime", "600",
        "ramp.mode", "rate", "ramp.rate.start", "80", "ramp.rate.threads", "8");
    OfferedLoad load = new OfferedLoad(plan, RampMode.RATE, MeasurementInterval.OP);
    load.start(clients);
    assertThat(load.main().intervalNanos()).isEqualTo(100_000_000);
    load.step(new NextStep(8, 160), clients);
    assertThat(load.main().intervalNanos()).isEqualTo(50_000_000);
    assertThat(clients.mainThreads()).isEqualTo(8);
  }

  @Test
  void aThreadRampAddsMainThreadsUpToTheStep() throws Exception {
    PhasePlan plan = plan(new PhasePlanTest.Grouped(), "operationcount", "0", "maxexecutiontime", "600",
        "ramp.mode", "threads", "ramp.start", "2", "ramp.maxthreads", "10");
    OfferedLoad load = new OfferedLoad(plan, RampMode.THREADS, MeasurementInterval.OP);
    load.start(clients);
    assertThat(clients.mainThreads()).isEqualTo(2);
    load.step(new NextStep(5, 0), clients);
    assertThat(clients.mainThreads()).isEqualTo(5);
    assertThat(clients.started()).isEqualTo(5);
  }
}
