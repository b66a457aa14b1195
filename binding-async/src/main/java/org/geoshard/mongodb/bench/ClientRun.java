package org.geoshard.mongodb.bench;

/**
 * One measured run of one client on the same reads.
 *
 * @param client the binding's name ({@code mongodb-geo}) or {@code bare driver}
 * @param operations reads that answered (found their record)
 * @param errors reads that failed or found nothing
 * @param seconds the run's wall-clock time
 * @param cpuNanos this JVM's CPU time during the run (every thread: client threads, driver, JIT, GC)
 * @param loadAverage the machine's one-minute load average at the end of the run
 */
record ClientRun(String client, long operations, long errors, double seconds, long cpuNanos, double loadAverage) {
  double throughput() {
    return seconds <= 0 ? Double.NaN : operations / seconds;
  }

  /** CPU microseconds per read: the process's CPU time over the reads that answered. */
  double cpuMicrosPerOperation() {
    return operations == 0 ? Double.NaN : cpuNanos / 1000.0 / operations;
  }
}
