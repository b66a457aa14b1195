package org.geoshard.harness.output;

import java.nio.file.Path;
import java.util.Map;
import org.geoshard.harness.measure.LatencyStats;
import org.geoshard.harness.measure.StopReason;
import org.geoshard.harness.ramp.RampResult;
import org.geoshard.harness.stats.Plateau;

/**
 * What a load or run measured.
 *
 * @param runtimeMs from the moment all threads were released to the moment the last one finished
 * @param operations operations that ended, failed ones included
 * @param throughput operations that succeeded ({@code operations - errors}) per second over {@code runtimeMs}
 * @param threadFailures threads that crashed (their finished operations are still counted)
 * @param threads client threads at the end
 * @param ramp the max-throughput search, or null for a run with fixed threads
 * @param plateau per-second throughput statistics of the plateau, or null if it is empty
 * @param preparationFailure the sentence saying which preparation step after the load (such as an index
 *     build) failed and why, or null when none did
 * @param sweep the steps of a thread group's rate sweep, or null
 */
public record RunResult(Path folder, StopReason stopReason, long runtimeMs, long operations, long errors,
                        double throughput, int threads, int threadFailures, LatencyStats overall,
                        Map<String, LatencyStats> perOperation, RampResult ramp, Plateau plateau,
                        String preparationFailure, Sweep sweep) {

  public RunResult {
    perOperation = Map.copyOf(perOperation);
  }

  /** A thread group's rate sweep: the group and every step. */
  public record Sweep(String group, RampResult steps) {
  }

  /** True when no operation succeeded (all failed, or none ended): the phase measured nothing. */
  public boolean nothingSucceeded() {
    return operations - errors <= 0;
  }

  /** True when a preparation step after the load failed: the loaded data is not ready to run on. */
  public boolean preparationFailed() {
    return preparationFailure != null;
  }

  /**
   * True when something went wrong that the user must look at: a failed start, a crashed thread, a
   * phase that gave up, or any failed operation. A ramp is no exception: its errors end the search, but
   * an operation that failed is still something to look at (the exit code says so).
   */
  public boolean hasFailures() {
    return threadFailures > 0 || stopReason == StopReason.FAILED || stopReason == StopReason.GIVEUP || preparationFailed()
        || errors > 0;
  }
}
