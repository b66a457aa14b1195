package org.geoshard.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import org.geoshard.harness.measure.StopReason;
import org.geoshard.harness.output.RunResult;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Properties;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.binding.NoopDB;
import org.geoshard.harness.measure.Meters;
import org.geoshard.harness.observe.StageListeners;
import org.geoshard.harness.output.TimeseriesWriter;
import org.geoshard.harness.ramp.RampController;
import org.geoshard.harness.ramp.SweepController;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.Workload;
import site.ycsb.workloads.CoreWorkload;

class PhaseMeasurementTest {
  private static final Binding NOOP = new Binding("noop", NoopDB.class);

  @TempDir
  Path dir;

  private final Meters meters = new Meters(1);
  private final StopSignal stop = new StopSignal();
  private final ClientThreads clients = ClientThreadsTest.threads(new ClientThreadsTest.Reads(0), new NoopDB(), stop,
      Ticker.SYSTEM);
  private PhaseMeasurement measurement;

  @AfterEach
  void end() {
    stop.stop(StopReason.COMPLETED);
    if (measurement != null) {
      measurement.stop();
    }
    clients.join(Duration.ofSeconds(30));
  }

  private PhaseMeasurement start(Phase phase, Workload workload, String... pairs) throws Exception {
    Properties p = new Properties();
    p.setProperty("workload", CoreWorkload.class.getName());
    p.setProperty("status.interval", "0");
    p.setProperty("recordcount", "100");
    p.setProperty("results.dir", dir.resolve("run").toString());
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    RunSettings settings = RunSettings.fromProperties(phase, p, "measure");
    PhasePlan plan = PhasePlan.of(settings, workload, NOOP);
    RunRecorder recorder = RunRecorder.create(settings, dir, NOOP, p, plan, Clock.systemUTC());
    measurement = PhaseMeasurement.start(settings, plan, meters, recorder, clients, new StageListeners(), stop);
    return measurement;
  }

  @Test
  void whatTheMetersCountedIsThePhasesResult() throws Exception {
    PhaseMeasurement m = start(Phase.LOAD, new TestBindings.CrashingWorkload());
    assertThat(m.steps()).as("a load has no steps").isNull();
    for (int i = 0; i < 40; i++) {
      meters.meter("INSERT").record(0, 250, i % 10 != 0);
    }
    m.stop();
    RunResult result = m.result(StopReason.COMPLETED, 2_000, clients, null);
    assertThat(result.operations()).isEqualTo(40);
    assertThat(result.errors()).isEqualTo(4);
    assertThat(result.throughput()).as("successful operations per second").isEqualTo(18.0);
    assertThat(result.perOperation().get("INSERT").count()).isEqualTo(40);
    assertThat(result.stopReason()).isEqualTo(StopReason.COMPLETED);
    assertThat(dir.resolve("run").resolve(TimeseriesWriter.FILE_NAME)).exists();
    assertThat(m.startEpochMs()).isPositive();
    assertThat(m.cost()[0]).as("the last interval was taken").isPositive();
  }

  @Test
  void aRampOrASweepHasSteps() throws Exception {
    assertThat(start(Phase.RUN, new PhasePlanTest.Grouped(), "operationcount", "0", "maxexecutiontime", "600",
        "ramp.mode", "rate").steps()).isInstanceOf(RampController.class);
    measurement.stop();
    Path second = dir.resolve("second");
    assertThat(start(Phase.RUN, new PhasePlanTest.Grouped(new org.geoshard.harness.api.ThreadGroups.ThreadGroup("w", 1,
        java.util.List.of(1.0, 2.0), Duration.ofSeconds(5))), "operationcount", "10", "results.dir", second.toString())
        .steps()).isInstanceOf(SweepController.class);
  }

  @Test
  void anUnmeasuredPhaseCountsWhatItsThreadsDidWithoutErrors() throws Exception {
    PhaseMeasurement m = start(Phase.RUN, new TestBindings.CrashingWorkload(), "operationcount", "10",
        "measurementtype", "none");
    clients.startMain(2, 7, new Pacer(0, 2, false), MeasurementInterval.OP);
    clients.awaitReady();
    clients.open();
    assertThat(clients.awaitMainThreads(30_000)).isTrue();
    m.stop();
    RunResult result = m.result(StopReason.COMPLETED, 1_000, clients, null);
    assertThat(result.operations()).isEqualTo(7);
    assertThat(result.errors()).isZero();
    assertThat(result.throughput()).isEqualTo(7.0);
  }

  @Test
  void nothingButFailuresForTheGiveUpTimeStopsThePhase() throws Exception {
    start(Phase.RUN, new TestBindings.CrashingWorkload(), "operationcount", "0", "maxexecutiontime", "600",
        "giveup.s", "1");
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!stop.requested() && System.nanoTime() < deadline) {
      meters.meter("READ").record(0, 100, false);
      Thread.sleep(20);
    }
    assertThat(stop.reason()).isEqualTo(StopReason.GIVEUP);
  }
}
