package org.geoshard.harness.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The machine's load averages ({@code /proc/loadavg}), which the benches print beside their figures: on
 * a shared machine a client's throughput says little without them.
 */
public final class LoadAverage {
  private static final Path LOADAVG = Path.of("/proc/loadavg");

  private LoadAverage() {
  }

  /** The one-minute load average, NaN where {@code /proc/loadavg} is missing. */
  public static double oneMinute() {
    String[] parts = parts();
    return parts == null ? Double.NaN : Double.parseDouble(parts[0]);
  }

  /** "0.52, 0.61, 0.70" (1, 5 and 15 minutes), or "unknown". */
  public static String described() {
    String[] parts = parts();
    return parts == null ? "unknown" : parts[0] + ", " + parts[1] + ", " + parts[2];
  }

  private static String[] parts() {
    try {
      String[] parts = Files.readString(LOADAVG).trim().split(" ");
      Double.parseDouble(parts[0]);
      return parts.length >= 3 ? parts : null;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
