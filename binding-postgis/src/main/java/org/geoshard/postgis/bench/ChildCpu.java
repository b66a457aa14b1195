package org.geoshard.postgis.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The CPU time (user + system) of this process's children that have ended and been waited for, as
 * Linux counts it in {@code /proc/self/stat} ({@code cutime}, {@code cstime}): the whole of a client
 * process, its start-up, JIT compiler and garbage collector included, read after it ended.
 */
final class ChildCpu {
  /** Linux's USER_HZ: the unit of the times in /proc, 100 on every architecture's ABI. */
  private static final long TICKS_PER_SECOND = 100;
  private static final Path STAT = Path.of("/proc/self/stat");

  private ChildCpu() {
  }

  /** The CPU time of every child ended so far; the difference around one child is that child's. */
  static Duration used() throws IOException {
    if (!Files.isReadable(STAT)) {
      throw new IOException("bench postgis measures the clients' CPU through /proc/self/stat, which this system"
          + " does not have (it runs on Linux only).");
    }
    return parse(Files.readString(STAT));
  }

  static Duration parse(String stat) {
    // The process name (field 2) may hold spaces and parentheses: count fields after its last ')'.
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    long ticks = Long.parseLong(fields[13]) + Long.parseLong(fields[14]);
    return Duration.ofMillis(ticks * 1000 / TICKS_PER_SECOND);
  }
}
