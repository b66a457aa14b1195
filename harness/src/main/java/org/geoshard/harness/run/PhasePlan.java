package org.geoshard.harness.run;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.geoshard.harness.api.DataRole;
import org.geoshard.harness.api.DeclaresData;
import org.geoshard.harness.api.ExplainsOperations;
import org.geoshard.harness.api.KnowsInsertCount;
import org.geoshard.harness.api.ObservesServers;
import org.geoshard.harness.api.RequiresContracts;
import org.geoshard.harness.api.ThreadGroups;
import org.geoshard.harness.api.ThreadGroups.ThreadGroup;
import org.geoshard.harness.api.WatchesStages;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.ramp.RampMode;
import org.geoshard.harness.ramp.RampSettings;
import site.ycsb.Workload;

/**
 * What a phase will do, decided before anything starts: its client threads and their rates, the
 * operations it plans, the data it may touch and what runs beside it. Refusals (a contract the binding
 * lacks, two sweeps, nothing to load) come from here, before a run folder exists.
 *
 * @param data the data the workload declares (what preparation may touch)
 * @param plannedOperations over all main threads; 0 means until stopped
 * @param mainThreads the main client threads at the start ({@code threadcount}, or the ramp's first step)
 * @param clientThreads every client thread the phase may have ({@code clientthreads}: a thread ramp's most, and the groups')
 * @param mainOfferedRate ops/s offered by the main threads together at the start; 0 unpaced
 * @param groups the workload's thread groups (a run only)
 * @param explainWindow the explain sampler's window, or null when no request is explained
 */
record PhasePlan(Phase phase, Set<DataRole> data, long plannedOperations, int mainThreads, int clientThreads,
    double mainOfferedRate, List<ThreadGroup> groups, Duration explainWindow, Listeners listeners) {

  /** What runs beside the phase, as the settings and the binding's contracts ask. */
  record Listeners(boolean traceIo, boolean watchStages, boolean observeServers) {
  }

  /**
   * The plan of {@code settings} for an initialised workload on {@code binding}.
   *
   * @throws ConfigException the workload cannot run as set on this binding
   */
  static PhasePlan of(RunSettings settings, Workload workload, Binding binding) throws ConfigException {
    Phase phase = settings.phase();
    checkContracts(phase, workload, binding);
    List<ThreadGroup> groups = phase == Phase.RUN && workload instanceof ThreadGroups tg
        ? List.copyOf(tg.threadGroups()) : List.of();
    RampSettings ramp = settings.ramp();
    checkSweeps(workload, groups, ramp);
    long planned = settings.plannedOperations(workload instanceof KnowsInsertCount k ? k.insertCount() : 0);
    if (phase == Phase.LOAD && planned == 0 && settings.maxExecutionTime().isZero()) {
      throw new ConfigException("Nothing to load: set property 'recordcount' (or 'insertcount') to the number of records.");
    }
    int clientThreads = (ramp.mode() == RampMode.THREADS ? ramp.maxThreads() : settings.initialThreads())
        + groups.stream().mapToInt(ThreadGroup::threads).sum();
    double mainRate = switch (ramp.mode()) {
      case RATE -> ramp.startRate();
      case THREADS -> 0;
      case NONE -> settings.targetOpsPerSecond();
    };
    boolean explains = phase == Phase.RUN && settings.explain().enabled() && settings.measured()
        && ExplainsOperations.class.isAssignableFrom(binding.type());
    Duration explainWindow = !explains ? null
        : ramp.mode() != RampMode.NONE ? ramp.interval()
        : groups.stream().filter(ThreadGroup::sweeps).map(ThreadGroup::stepInterval).findFirst()
            .orElse(settings.explain().window());
    Listeners listeners = new Listeners(!settings.ioTrace().stages().isEmpty(),
        WatchesStages.class.isAssignableFrom(binding.type()),
        settings.observe().enabled() && (ObservesServers.class.isAssignableFrom(binding.type())
            || !settings.observe().nodeExporters().isEmpty()));
    return new PhasePlan(phase, DeclaresData.of(workload), planned, settings.initialThreads(), clientThreads, mainRate,
        groups, explainWindow, listeners);
  }

  boolean load() {
    return phase == Phase.LOAD;
  }

  /** The thread group that sweeps its rates, or null. */
  ThreadGroup sweepGroup() {
    return groups.stream().filter(ThreadGroup::sweeps).findFirst().orElse(null);
  }

  private static void checkContracts(Phase phase, Workload workload, Binding binding) throws ConfigException {
    if (!(workload instanceof RequiresContracts requires)) {
      return;
    }
    Set<String> missing = new LinkedHashSet<>();
    for (Class<?> contract : requires.requiredContracts(phase == Phase.LOAD)) {
      if (!contract.isAssignableFrom(binding.type())) {
        missing.add(contract.getSimpleName());
      }
    }
    if (!missing.isEmpty()) {
      throw new ConfigException("Binding '" + binding.name() + "' (" + binding.type().getName() + ") does not implement "
          + String.join(", ", missing) + ", which workload " + workload.getClass().getSimpleName() + " needs.");
    }
  }

  private static void checkSweeps(Workload workload, List<ThreadGroup> groups, RampSettings ramp) throws ConfigException {
    if (groups.stream().filter(ThreadGroup::sweeps).count() > 1) {
      throw new ConfigException("Workload " + workload.getClass().getSimpleName() + " sweeps more than one thread group;"
          + " one sweep per run.");
    }
    if (groups.stream().anyMatch(ThreadGroup::sweeps) && ramp.mode() != RampMode.NONE) {
      throw new ConfigException("A sweep (" + groups.stream().filter(ThreadGroup::sweeps).findFirst().orElseThrow().name()
          + ") and a ramp (ramp.mode) cannot run together: set one of them.");
    }
  }
}
