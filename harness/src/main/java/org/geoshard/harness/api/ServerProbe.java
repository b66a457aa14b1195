package org.geoshard.harness.api;

import java.util.Map;

/**
 * Reads the metrics of one server node on a connection of its own, with monitoring requests only
 * (never the benchmark's data). Called by the harness's sampler thread only, about once per
 * {@code observe.interval}.
 *
 * <p>Metric names follow Prometheus's convention so that readers can tell counters from gauges: a
 * cumulative counter's name ends in {@code _total} (the report turns it into a rate), anything else is
 * a gauge; a label (a CPU mode, a device, a table) follows the name after a dot, as in
 * {@code node_cpu_seconds_total.user} or {@code pg_statio_heap_blks_read_total.restaurants}.
 */
public interface ServerProbe extends AutoCloseable {
  /** The node, as people name it: {@code host:port}, or a shard's name. */
  String node();

  /** What the node is: {@code mongos}, {@code shard-primary}, {@code config}, {@code mongod}, {@code postgresql}, {@code host}. */
  String role();

  /**
   * One reading: metric name to value. Throws when the node cannot be read; the sampler logs that once
   * and tries again at the next interval (a probe reconnects by itself).
   */
  Map<String, Double> sample() throws Exception;

  /** Closes the probe's connection; never throws. */
  @Override
  void close();
}
