package org.geoshard.harness.ramp;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.geoshard.harness.measure.LatencyStats;

/**
 * One step of a ramp as written to {@code summary.json}: its load, what it achieved over its window
 * (all operations but CLEANUP), and the rule's verdict.
 *
 * @param offeredOpsPerSec the offered rate in an open-loop ramp, null in a closed loop
 * @param startSecond first interval ({@code second} in timeseries.csv) of the step's window
 * @param endSecond last interval of the step's window
 * @param operations operations that ended in the window, failed ones included
 * @param throughput operations that succeeded per second ({@code operations - errors} over the window)
 * @param withinLatencyPercent share of requests within the latency limit
 * @param durationMs length of the step's window
 * @param perOperation each operation's statistics over the window
 */
public record StepRecord(int step, int threads, Double offeredOpsPerSec, long startSecond, long endSecond,
                         long operations, long errors, long timeouts, double throughput, long p50Us, long p95Us,
                         long p98Us, long p99Us, long maxUs, double withinLatencyPercent, Verdict verdict,
                         long durationMs, Map<String, LatencyStats> perOperation) {
  public StepRecord {
    perOperation = Collections.unmodifiableMap(new LinkedHashMap<>(perOperation));
  }

  /** An operation's throughput over the window: operations that succeeded, per second. */
  public double throughput(String operation) {
    LatencyStats stats = perOperation.get(operation);
    return stats == null ? 0 : Math.max(0, stats.count() - stats.errors()) * 1000.0 / Math.max(1, durationMs);
  }
}
