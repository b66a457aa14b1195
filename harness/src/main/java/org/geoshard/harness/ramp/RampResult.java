package org.geoshard.harness.ramp;

import java.util.List;

/**
 * The outcome of a max-throughput search.
 *
 * @param maxSustainedThroughput the highest throughput of a step that met the rule, or null if none did
 * @param peakStep that step's number, or null
 * @param peakThreads that step's threads, or null
 */
public record RampResult(RampMode mode, SlaRule rule, List<StepRecord> steps, Double maxSustainedThroughput,
                         Integer peakStep, Integer peakThreads) {

  public RampResult {
    steps = List.copyOf(steps);
  }

  public static RampResult of(RampMode mode, SlaRule rule, List<StepRecord> steps) {
    StepRecord peak = null;
    for (StepRecord step : steps) {
      if (step.verdict() == Verdict.PASS && (peak == null || step.throughput() > peak.throughput())) {
        peak = step;
      }
    }
    return new RampResult(mode, rule, steps, peak == null ? null : peak.throughput(),
        peak == null ? null : peak.step(), peak == null ? null : peak.threads());
  }

  public StepRecord peak() {
    return peakStep == null ? null : steps.get(peakStep - 1);
  }
}
