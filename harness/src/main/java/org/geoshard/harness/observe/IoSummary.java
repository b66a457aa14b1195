package org.geoshard.harness.observe;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * What a block trace says in a few numbers: requests and bytes (reads and writes apart), the share of
 * sequential requests and latency percentiles. A request is sequential when it starts at the sector
 * where the previous request of the same device and direction (in start order) ended; the first of each
 * is not counted either way. Requests without data (flushes) count as requests but not in the share.
 */
public final class IoSummary {
  private IoSummary() {
  }

  public static Map<String, Object> of(List<BlockRequest> requests) {
    List<BlockRequest> ordered = new ArrayList<>(requests);
    ordered.sort(Comparator.comparingLong(BlockRequest::startNanos));
    Map<String, Long> lastEnd = new HashMap<>();
    long sequential = 0;
    long judged = 0;
    long[] count = new long[2];
    long[] bytes = new long[2];
    Histogram latency = new Histogram(3_600_000_000L, 3);
    for (BlockRequest r : ordered) {
      latency.recordValue(Math.max(1, Math.min(r.latencyNanos() / 1000, 3_600_000_000L)));
      int dir = r.op().equals("R") ? 0 : r.op().equals("W") ? 1 : -1;
      if (dir < 0 || r.bytes() == 0) {
        continue;
      }
      count[dir]++;
      bytes[dir] += r.bytes();
      String key = r.device() + r.op();
      Long previous = lastEnd.put(key, r.endSector());
      if (previous != null) {
        judged++;
        if (previous == r.sector()) {
          sequential++;
        }
      }
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("requests", (long) ordered.size());
    out.put("bytes", bytes[0] + bytes[1]);
    out.put("readRequests", count[0]);
    out.put("readBytes", bytes[0]);
    out.put("writeRequests", count[1]);
    out.put("writeBytes", bytes[1]);
    out.put("sequentialShare", judged == 0 ? null : (double) sequential / judged);
    if (!ordered.isEmpty()) {
      Map<String, Object> lat = new LinkedHashMap<>();
      lat.put("p50", latency.getValueAtPercentile(50));
      lat.put("p95", latency.getValueAtPercentile(95));
      lat.put("p99", latency.getValueAtPercentile(99));
      lat.put("max", latency.getMaxValue());
      out.put("latencyUs", lat);
    }
    return out;
  }
}
