package org.geoshard.postgis.bench;

import java.time.Duration;

/**
 * One measured run of one client.
 *
 * @param client {@code pgbench} or {@code ycsb}
 * @param queries every query the process answered, its warm-up included
 * @param throughput queries per second after the warm-up
 * @param cpu the whole process's CPU time, start-up included
 * @param loadAverage the machine's one-minute load average at the end of the run
 */
record ClientRun(String client, long queries, double throughput, Duration cpu, double loadAverage) {
  /** CPU microseconds per query: the process's CPU time over every query it answered. */
  double cpuMicrosPerQuery() {
    return queries == 0 ? Double.NaN : cpu.toNanos() / 1000.0 / queries;
  }
}
