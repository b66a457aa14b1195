package org.geoshard.mongodb.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

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

  /** The one-minute load average, NaN where /proc/loadavg is missing. */
  static double loadAverage() {
    try {
      return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
    } catch (IOException | RuntimeException e) {
      return Double.NaN;
    }
  }

  /** The machine line of the report's header: cores and the load averages (1, 5, 15 minutes). */
  static String machine() {
    String load;
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
      load = parts[0] + ", " + parts[1] + ", " + parts[2];
    } catch (IOException | RuntimeException e) {
      load = "unknown";
    }
    return Runtime.getRuntime().availableProcessors() + " cores, load average " + load + ", Java "
        + System.getProperty("java.version");
  }
}
