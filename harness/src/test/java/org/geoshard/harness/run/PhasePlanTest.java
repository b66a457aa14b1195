package org.geoshard.harness.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.geoshard.harness.api.KnowsInsertCount;
import org.geoshard.harness.api.ThreadGroups;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.binding.NoopDB;
import org.geoshard.harness.config.ConfigException;
import org.junit.jupiter.api.Test;
import site.ycsb.DB;
import site.ycsb.Workload;
import site.ycsb.workloads.CoreWorkload;

class PhasePlanTest {
  private static final Binding NOOP = new Binding("noop", NoopDB.class);

  /** A workload with the given thread groups that knows how many records it inserts. */
  static final class Grouped extends Workload implements ThreadGroups, KnowsInsertCount {
    private final List<ThreadGroup> groups;

    Grouped(ThreadGroup... groups) {
      this.groups = List.of(groups);
    }

    @Override
    public List<ThreadGroup> threadGroups() {
      return groups;
    }

    @Override
    public long insertCount() {
      return 700;
    }

    @Override
    public boolean doInsert(DB db, Object state) {
      return false;
    }

    @Override
    public boolean doTransaction(DB db, Object state) {
      return false;
    }
  }

  private static RunSettings settings(Phase phase, String... pairs) throws ConfigException {
    Properties p = new Properties();
    p.setProperty("workload", CoreWorkload.class.getName());
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return RunSettings.fromProperties(phase, p, "plan");
  }

  private static ThreadGroups.ThreadGroup group(String name, int threads, Double... rates) {
    return new ThreadGroups.ThreadGroup(name, threads, List.of(rates), Duration.ofSeconds(10));
  }

  @Test
  void aLoadPlansItsRecordsOverItsThreadsAndHasNoGroups() throws Exception {
    PhasePlan plan = PhasePlan.of(settings(Phase.LOAD, "recordcount", "1000", "threadcount", "4"),
        new Grouped(group("writers", 2, 10.0)), NOOP);
    assertThat(plan.load()).isTrue();
    assertThat(plan.plannedOperations()).isEqualTo(1000);
    assertThat(plan.mainThreads()).isEqualTo(4);
    assertThat(plan.groups()).as("thread groups run beside a run only").isEmpty();
    assertThat(plan.clientThreads()).isEqualTo(4);
    assertThat(plan.mainOfferedRate()).isZero();
  }

  @Test
  void aLoadWithoutARecordCountTakesTheWorkloads() throws Exception {
    PhasePlan plan = PhasePlan.of(settings(Phase.LOAD, "threadcount", "2"), new Grouped(), NOOP);
    assertThat(plan.plannedOperations()).isEqualTo(700);
  }

  @Test
  void groupsAddTheirThreadsToTheClientThreadsAndOneMaySweep() throws Exception {
    PhasePlan plan = PhasePlan.of(settings(Phase.RUN, "operationcount", "100", "threadcount", "3", "target", "600"),
        new Grouped(group("writers", 2, 10.0), group("sweep", 4, 0.0, 100.0, 200.0)), NOOP);
    assertThat(plan.clientThreads()).isEqualTo(3 + 2 + 4);
    assertThat(plan.sweepGroup().name()).isEqualTo("sweep");
    assertThat(plan.mainOfferedRate()).isEqualTo(600);
  }

  @Test
  void aThreadRampPlansForItsMostThreadsFromItsFirstStep() throws Exception {
    PhasePlan plan = PhasePlan.of(settings(Phase.RUN, "operationcount", "0", "maxexecutiontime", "600",
        "ramp.mode", "threads", "ramp.start", "2", "ramp.maxthreads", "16"), new Grouped(group("w", 1, 5.0)), NOOP);
    assertThat(plan.mainThreads()).isEqualTo(2);
    assertThat(plan.clientThreads()).isEqualTo(16 + 1);
    assertThat(plan.plannedOperations()).as("a ramp ignores operationcount").isZero();
  }

  @Test
  void aRateRampOffersItsFirstRateOverItsThreads() throws Exception {
    PhasePlan plan = PhasePlan.of(settings(Phase.RUN, "operationcount", "0", "maxexecutiontime", "600",
        "ramp.mode", "rate", "ramp.rate.start", "500", "ramp.rate.threads", "8"), new Grouped(), NOOP);
    assertThat(plan.mainThreads()).isEqualTo(8);
    assertThat(plan.mainOfferedRate()).isEqualTo(500);
    assertThat(plan.explainWindow()).as("the noop binding explains nothing").isNull();
  }

  @Test
  void whatCannotRunIsRefusedBeforeAnythingStarts() throws Exception {
    RunSettings run = settings(Phase.RUN, "operationcount", "10");
    assertThatThrownBy(() -> PhasePlan.of(run, new Grouped(group("a", 1, 1.0, 2.0), group("b", 1, 1.0, 2.0)), NOOP))
        .isInstanceOf(ConfigException.class).hasMessageContaining("one sweep per run");
    RunSettings ramp = settings(Phase.RUN, "operationcount", "0", "maxexecutiontime", "600", "ramp.mode", "threads");
    assertThatThrownBy(() -> PhasePlan.of(ramp, new Grouped(group("a", 1, 1.0, 2.0)), NOOP))
        .isInstanceOf(ConfigException.class).hasMessageContaining("cannot run together");
    assertThatThrownBy(() -> PhasePlan.of(run, new TestBindings.PingWorkload(), NOOP))
        .isInstanceOf(ConfigException.class).hasMessageContaining("does not implement Pinger");
    assertThatThrownBy(() -> PhasePlan.of(settings(Phase.LOAD), new TestBindings.CrashingWorkload(), NOOP))
        .isInstanceOf(ConfigException.class).hasMessageStartingWith("Nothing to load");
  }

  @Test
  void theListenersFollowTheSettingsAndTheBindingsContracts() throws Exception {
    PhasePlan quiet = PhasePlan.of(settings(Phase.LOAD, "recordcount", "10"), new Grouped(), NOOP);
    assertThat(quiet.listeners().traceIo()).isFalse();
    assertThat(quiet.listeners().watchStages()).isFalse();
    assertThat(quiet.listeners().observeServers()).as("the noop binding names no server").isFalse();
    PhasePlan watched = PhasePlan.of(settings(Phase.LOAD, "recordcount", "10", "trace.io", "load"), new Grouped(),
        new Binding("watching", TestBindings.WatchingDB.class));
    assertThat(watched.listeners().traceIo()).isTrue();
    assertThat(watched.listeners().watchStages()).isTrue();
    assertThat(watched.listeners().observeServers()).isFalse();
  }
}
