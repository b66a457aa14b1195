package org.geoshard.harness.observe;

import java.util.Locale;

/**
 * One traced block request.
 *
 * @param startNanos when it started, on the monotonic clock ({@code System.nanoTime()}'s on Linux)
 * @param device {@code major:minor}
 * @param sector first 512-byte sector
 * @param bytes size (0 for a flush)
 * @param rwbs the kernel's flags: R read, W write, D discard, F flush, S sync, A readahead, M metadata
 * @param pid the process that submitted it
 * @param process its name
 * @param latencyNanos from start to completion
 */
public record BlockRequest(long startNanos, String device, long sector, long bytes, String rwbs, long pid,
    String process, long latencyNanos) {

  /** CSV columns of {@code io/<node>.csv}. */
  public static final String CSV_HEADER = "epoch_ms,stage,device,sector,bytes,op,rwbs,process,pid,latency_us";

  /** {@code R}, {@code W} or {@code other} (a flush without data, a discard). */
  public String op() {
    if (rwbs.indexOf('R') >= 0) {
      return "R";
    }
    return rwbs.indexOf('W') >= 0 && bytes > 0 ? "W" : "other";
  }

  /** The sector after the last one this request touches. */
  public long endSector() {
    return sector + bytes / 512;
  }

  /** Parses one line the tracer printed; null for anything else (bpftrace's own messages). */
  public static BlockRequest parse(String line) {
    String[] f = line.split(",", -1);
    if (f.length != 9) {
      return null;
    }
    try {
      return new BlockRequest(Long.parseUnsignedLong(f[0]), f[1] + ":" + f[2], Long.parseUnsignedLong(f[3]),
          Long.parseLong(f[4]), f[5], Long.parseLong(f[6]), f[7], Long.parseUnsignedLong(f[8]));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** One CSV row; the epoch time is the start translated with the given clock pair. */
  public String csv(long epochMsAtAnchor, long nanosAtAnchor, String stage) {
    double epochMs = epochMsAtAnchor + (startNanos - nanosAtAnchor) / 1e6;
    return String.format(Locale.US, "%.3f,%s,%s,%d,%d,%s,%s,%s,%d,%.1f", epochMs, stage, device, sector, bytes,
        op(), rwbs, process.replace(',', '_'), pid, latencyNanos / 1000.0);
  }
}
