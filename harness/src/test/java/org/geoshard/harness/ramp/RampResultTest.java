package org.geoshard.harness.ramp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which step a ramp reports as its maximum, on made-up steps (no clock, no threads). */
class RampResultTest {
  private static final SlaRule RULE = new SlaRule(98, 100_000, 10_000_000, 0, false);

  private static StepRecord step(int step, int threads, double throughput, Verdict verdict) {
    return new StepRecord(step, threads, null, step * 2L - 1, step * 2L, (long) throughput * 2, 0, 0, throughput,
        1_000, 2_000, 3_000, 4_000, 5_000, 100, verdict, 2_000, Map.of());
  }

  @Test
  void thePeakIsTheFastestPassingStepNotTheLastOne() {
    RampResult result = RampResult.of(RampMode.THREADS, RULE, List.of(step(1, 2, 900, Verdict.PASS),
        step(2, 4, 700, Verdict.PASS), step(3, 6, 2_000, Verdict.SLA)));
    assertThat(result.peakStep()).isEqualTo(1);
    assertThat(result.peakThreads()).isEqualTo(2);
    assertThat(result.maxSustainedThroughput()).isEqualTo(900.0);
    assertThat(result.peak().threads()).isEqualTo(2);
  }

  @Test
  void aFasterStepThatBrokeTheRuleIsNeverThePeak() {
    RampResult result = RampResult.of(RampMode.THREADS, RULE, List.of(step(1, 1, 100, Verdict.PASS),
        step(2, 2, 300, Verdict.TIMEOUT), step(3, 3, 200, Verdict.PASS)));
    assertThat(result.peakStep()).isEqualTo(3);
    assertThat(result.maxSustainedThroughput()).isEqualTo(200.0);
  }

  @Test
  void noPassingStepMeansNoMaximum() {
    RampResult result = RampResult.of(RampMode.THREADS, RULE, List.of(step(1, 1, 100, Verdict.SLA)));
    assertThat(result.maxSustainedThroughput()).isNull();
    assertThat(result.peakStep()).isNull();
    assertThat(result.peak()).isNull();
  }
}
