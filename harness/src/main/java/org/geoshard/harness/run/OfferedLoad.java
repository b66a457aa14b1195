package org.geoshard.harness.run;

import java.util.HashMap;
import java.util.Map;
import org.geoshard.harness.api.ThreadGroups.ThreadGroup;
import org.geoshard.harness.ramp.RampMode;
import org.geoshard.harness.ramp.StepController.NextStep;

/**
 * The load a phase offers: the pacer of its main threads and one per thread group, set at the start
 * from the plan and changed by each step of a ramp or a sweep.
 */
final class OfferedLoad {
  private final PhasePlan plan;
  private final RampMode rampMode;
  private final MeasurementInterval mainInterval;
  private final Pacer main;
  private final Map<String, Pacer> groups = new HashMap<>();

  /** @param mainInterval from when the main threads' latencies count ({@code measurement.interval}) */
  OfferedLoad(PhasePlan plan, RampMode rampMode, MeasurementInterval mainInterval) {
    this.plan = plan;
    this.rampMode = rampMode;
    this.mainInterval = mainInterval;
    this.main = new Pacer(plan.mainOfferedRate(), plan.mainThreads(), false);
    for (ThreadGroup group : plan.groups()) {
      groups.put(group.name(), new Pacer(group.rates().get(0), group.threads(), true));
    }
  }

  /** Starts the main threads with their share of the planned operations, then every group's threads. */
  void start(ClientThreads clients) {
    clients.startMain(plan.mainThreads(), plan.plannedOperations(), main, mainInterval);
    for (ThreadGroup group : plan.groups()) {
      clients.startGroup(group.threads(), groups.get(group.name()));
    }
  }

  /** The next step: a sweep's group offers its next rate, a thread ramp adds threads, a rate ramp offers more. */
  void step(NextStep next, ClientThreads clients) {
    ThreadGroup sweepGroup = plan.sweepGroup();
    if (sweepGroup != null) {
      groups.get(sweepGroup.name()).offer(next.offeredRate(), sweepGroup.threads());
    } else if (rampMode == RampMode.THREADS) {
      clients.startMain(next.threads() - clients.mainThreads(), 0, main, mainInterval);
    } else {
      main.offer(next.offeredRate(), clients.mainThreads());
    }
  }

  /** The main threads' pacer (for tests of what a step changes). */
  Pacer main() {
    return main;
  }

  /** A group's pacer, or null. */
  Pacer group(String name) {
    return groups.get(name);
  }
}
