package org.geoshard.harness.observe;

import java.util.List;

/**
 * What one run of the tracer saw.
 *
 * @param probes the tracepoints it used (those its program attached, in their order)
 * @param requests the requests it printed (those that started and completed while it traced)
 * @param started requests that started in a traced process; -1 when the tracer did not say (it was killed)
 * @param completed of those, the ones that completed; -1 likewise
 */
public record BlockTrace(List<String> probes, List<BlockRequest> requests, long started, long completed) {
  public BlockTrace {
    probes = List.copyOf(probes);
    requests = List.copyOf(requests);
  }

  /**
   * Requests that started but were never seen to complete: still in flight when the trace ended, merged
   * into another request, or missed; null when unknown.
   */
  public Long neverCompleted() {
    return started < 0 || completed < 0 ? null : started - completed;
  }
}
