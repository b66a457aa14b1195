package org.geoshard.harness.run;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.geoshard.harness.api.DataRole;
import org.geoshard.harness.api.DescribesTopology;
import org.geoshard.harness.api.ObservesServers;
import org.geoshard.harness.api.RunContext;
import org.geoshard.harness.api.Preparable;
import org.geoshard.harness.api.ServerProcesses;
import org.geoshard.harness.api.Throwables;
import org.geoshard.harness.api.ServerProbe;
import org.geoshard.harness.api.WatchesStages;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.observe.IoTraceSession;
import org.geoshard.harness.output.RunRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.DB;
import site.ycsb.DBException;

/**
 * The harness's own use of a binding, outside the client threads: preparation steps and the
 * topology, each on a binding instance of its own that is initialised and cleaned up around it.
 */
public final class BindingSession {
  private static final Logger LOG = LoggerFactory.getLogger(BindingSession.class);

  private final Binding binding;
  private final Properties properties;
  private final RunRecord record;
  /** The phase's context every instance joins, or null (instances fall back to their own). */
  private final RunContext context;
  /** True once an instance initialised: later failures are new ones, each tried again. */
  private volatile boolean contacted;
  /** The failure of the first contact (no instance initialised yet), given again without a second wait. */
  private volatile DBException firstContactFailure;

  public BindingSession(Binding binding, Properties properties, RunRecord record) {
    this(binding, properties, record, null);
  }

  public BindingSession(Binding binding, Properties properties, RunRecord record, RunContext context) {
    this.binding = binding;
    this.properties = properties;
    this.record = record;
    this.context = context;
  }

  public boolean preparable() {
    return Preparable.class.isAssignableFrom(binding.type());
  }

  /**
   * Runs one preparation stage for the data of the given roles (what the workload declares), each step
   * timed into the run record.
   */
  public void prepare(Preparable.Stage stage, Set<DataRole> data) throws DBException {
    if (!preparable()) {
      return;
    }
    withInstance(db -> ((Preparable) db).prepare(stage, data, (name, work) -> {
      long started = System.nanoTime();
      try {
        Map<String, Object> details = work.run();
        long millis = (System.nanoTime() - started) / 1_000_000;
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("stage", stage.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
        if (details != null) {
          entry.putAll(details);
        }
        record.preparationStep(name, millis, entry);
        LOG.info("Prepared: {} ({} ms)", name, millis);
      } catch (Exception e) {
        long millis = (System.nanoTime() - started) / 1_000_000;
        record.preparationStep(name, millis, Map.of("failed", String.valueOf(e.getMessage())));
        // A binding's own refusal is a sentence already; anything else (a driver's or server's answer) is named by step.
        throw e instanceof DBException db2 ? db2
            : new DBException("step '" + name + "' failed: " + Throwables.describe(e), e);
      }
    }));
  }

  /** Asks the binding, once before a run's threads start, whether the data the run reads is there. */
  public void checkBeforeRun(Set<DataRole> data) throws DBException {
    if (preparable()) {
      withInstance(db -> ((Preparable) db).checkBeforeRun(data));
    }
  }

  /** True when the binding can name its server nodes for the sampler. */
  public boolean observesServers() {
    return ObservesServers.class.isAssignableFrom(binding.type());
  }

  /**
   * The binding's probes, one per server node, from an instance of its own (cleaned up at once: the
   * probes hold connections of their own); empty for a binding that does not observe its servers.
   */
  public List<ServerProbe> serverProbes() throws DBException {
    if (!observesServers()) {
      return List.of();
    }
    return fromInstance(db -> ((ObservesServers) db).serverProbes());
  }

  /** True when the binding watches its database around the stages ({@link WatchesStages}). */
  public boolean watchesStages() {
    return WatchesStages.class.isAssignableFrom(binding.type());
  }

  /** The binding's watch of this phase (from an instance of its own), or null. */
  public WatchesStages.StageWatch stageWatch() throws DBException {
    return watchesStages() ? fromInstance(db -> ((WatchesStages) db).stageWatch()) : null;
  }

  /** Records the binding's topology, if it can describe one; a failure is logged, never fatal. */
  public void recordTopology(String when, Set<DataRole> data) {
    if (!DescribesTopology.class.isAssignableFrom(binding.type())) {
      return;
    }
    try {
      withInstance(db -> record.put("topology", topologyEntry(when, ((DescribesTopology) db).topology(data))));
    } catch (DBException | RuntimeException e) {
      LOG.warn("Could not read the topology {}: {}", when, e.getMessage());
    }
  }

  private static Map<String, Object> topologyEntry(String when, Map<String, Object> topology) {
    Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("recorded", when);
    entry.putAll(topology);
    return entry;
  }

  /**
   * The database's processes on this machine, for tracing: none when the binding cannot name them
   * ({@link ServerProcesses}).
   */
  public IoTraceSession.Targets localServer() throws DBException {
    if (!ServerProcesses.class.isAssignableFrom(binding.type())) {
      return new IoTraceSession.Targets(List.of(), "localhost");
    }
    return fromInstance(db -> {
      ServerProcesses sp = (ServerProcesses) db;
      return new IoTraceSession.Targets(sp.localServerPids(), sp.localNodeName());
    });
  }

  @FunctionalInterface
  private interface WithDb {
    void accept(DB db) throws DBException;
  }

  @FunctionalInterface
  private interface FromDb<T> {
    T apply(DB db) throws DBException;
  }

  private void withInstance(WithDb action) throws DBException {
    fromInstance(db -> {
      action.accept(db);
      return null;
    });
  }

  private <T> T fromInstance(FromDb<T> ask) throws DBException {
    DBException failed = firstContactFailure;
    if (failed != null) {
      throw failed;  // the same answer at once: one first contact per phase, not one wait per use
    }
    DB db = binding.newInstance(properties, context);
    try {
      db.init();
      contacted = true;
    } catch (DBException e) {
      if (!contacted) {
        firstContactFailure = e;
      }
      throw e;
    }
    try {
      return ask.apply(db);
    } finally {
      db.cleanup();
    }
  }
}
