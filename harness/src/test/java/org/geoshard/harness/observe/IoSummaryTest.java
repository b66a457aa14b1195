package org.geoshard.harness.observe;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IoSummaryTest {
  private static BlockRequest req(long t, String dev, long sector, long bytes, String rwbs, long latencyUs) {
    return new BlockRequest(t, dev, sector, bytes, rwbs, 1, "postgres", latencyUs * 1000);
  }

  @Test
  void countsBytesApartAndJudgesSequenceInStartOrderPerDeviceAndDirection() {
    List<BlockRequest> requests = List.of(
        req(3, "8:0", 16, 4096, "R", 300),    // follows the read at 8 (ends at 16): sequential
        req(1, "8:0", 0, 4096, "R", 100),     // first read of 8:0: not judged
        req(2, "8:0", 8, 4096, "RA", 200),    // follows 0..8: sequential
        req(4, "8:0", 1000, 8192, "W", 400),  // first write: not judged
        req(5, "8:0", 64, 4096, "R", 500),    // jumps: random
        req(6, "8:16", 72, 4096, "R", 600),   // another device: first there
        req(7, "8:0", 0, 0, "FWS", 700));     // a flush: a request, no data
    Map<String, Object> s = IoSummary.of(requests);
    assertThat(s).containsEntry("requests", 7L).containsEntry("bytes", 4 * 4096L + 4096L + 8192L)
        .containsEntry("readRequests", 5L).containsEntry("readBytes", 5 * 4096L)
        .containsEntry("writeRequests", 1L).containsEntry("writeBytes", 8192L);
    assertThat((Double) s.get("sequentialShare")).isEqualTo(2.0 / 3.0);
    @SuppressWarnings("unchecked")
    Map<String, Object> latency = (Map<String, Object>) s.get("latencyUs");
    assertThat((Long) latency.get("p50")).isBetween(399L, 401L);
    assertThat((Long) latency.get("max")).isBetween(699L, 701L);
  }

  @Test
  void anEmptyTraceHasNoShareAndNoLatencies() {
    Map<String, Object> s = IoSummary.of(List.of());
    assertThat(s).containsEntry("requests", 0L).containsEntry("sequentialShare", null).doesNotContainKey("latencyUs");
  }
}
