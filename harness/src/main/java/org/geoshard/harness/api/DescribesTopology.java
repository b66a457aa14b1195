package org.geoshard.harness.api;

import java.util.Map;
import site.ycsb.DBException;

/**
 * Implemented by a binding that can say what it ran against (server version, standalone or sharded,
 * shards and hosts, data per shard, balancer state). The harness asks a binding instance of its own
 * after a load or run and records the answer in {@code run.json} as {@code topology}.
 */
public interface DescribesTopology {
  Map<String, Object> topology() throws DBException;
}
