package org.geoshard.harness.run;

import java.nio.file.Path;
import java.util.Map;
import org.geoshard.harness.measure.LatencyStats;

/**
 * What a load or run measured.
 *
 * @param runtimeMs from the moment all threads were released to the moment the last one finished
 * @param throughput measured operations per second over {@code runtimeMs}
 * @param threadFailures threads that crashed (their finished operations are still counted)
 */
public record RunResult(Path folder, StopReason stopReason, long runtimeMs, long operations, long errors,
                        double throughput, int threads, int threadFailures, LatencyStats overall,
                        Map<String, LatencyStats> perOperation) {

  public RunResult {
    perOperation = Map.copyOf(perOperation);
  }

  /** True when something went wrong that the user must look at: errors, crashes, a failed start. */
  public boolean hasFailures() {
    return errors > 0 || threadFailures > 0 || stopReason == StopReason.FAILED;
  }
}
