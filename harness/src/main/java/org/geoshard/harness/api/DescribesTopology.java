package org.geoshard.harness.api;

import java.util.Map;
import java.util.Set;
import site.ycsb.DBException;

/**
 * Implemented by a binding that can say what it ran against (server version, standalone or sharded,
 * shards and hosts, data per shard, balancer state). The harness asks a binding instance of its own
 * after a load or run and records the answer in {@code run.json} as {@code topology}.
 */
public interface DescribesTopology {
  /** The deployment, with the binding's own default data (what {@code preflight} reads). */
  Map<String, Object> topology() throws DBException;

  /**
   * The deployment, with the collections or tables of the data the workload declares (a YCSB
   * key-value load describes {@code usertable}, not the restaurants); by default {@link #topology()}.
   */
  default Map<String, Object> topology(Set<DataRole> data) throws DBException {
    return topology();
  }
}
