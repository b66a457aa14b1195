package org.geoshard.mongodb.bench;

import java.lang.management.ManagementFactory;
import org.geoshard.harness.cli.LoadAverage;

/**
 * The CPU time of this JVM (user + system, every thread), as the operating system counts it. The
 * server under test is another process, so only the client's cost is counted.
 */
final class ProcessCpu {
  private ProcessCpu() {
  }

  /** Nanoseconds of CPU this process used so far; the difference around a run is the run's. */
  static long nanos() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
      long cpu = os.getProcessCpuTime();
      if (cpu >= 0) {
        return cpu;
      }
    }
    throw new IllegalStateException("This JVM does not report its process CPU time"
        + " (com.sun.management.OperatingSystemMXBean): bench mongodb needs it.");
  }

  /** The machine line of the report's header: cores and the load averages (1, 5, 15 minutes). */
  static String machine() {
    return Runtime.getRuntime().availableProcessors() + " cores, load average " + LoadAverage.described() + ", Java "
        + System.getProperty("java.version");
  }
}
