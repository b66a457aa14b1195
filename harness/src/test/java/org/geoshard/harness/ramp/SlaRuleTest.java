package org.geoshard.harness.ramp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.HdrHistogram.Histogram;
import org.geoshard.harness.measure.OperationMeter;
import org.junit.jupiter.api.Test;

class SlaRuleTest {
  private static final SlaRule STUDY = new SlaRule(98, 100_000, 10_000_000, 0, false);

  private static Histogram latencies(long fastCount, long fastUs, long slowCount, long slowUs) {
    Histogram h = OperationMeter.newHistogram();
    h.recordValueWithCount(fastUs, fastCount);
    if (slowCount > 0) {
      h.recordValueWithCount(slowUs, slowCount);
    }
    return h;
  }

  @Test
  void exactlyTwoPercentSlowStillPasses() {
    assertThat(STUDY.verdict(latencies(980, 5_000, 20, 150_000), Map.of(), 0)).isEqualTo(Verdict.PASS);
    assertThat(STUDY.verdict(latencies(979, 5_000, 21, 150_000), Map.of(), 0)).isEqualTo(Verdict.SLA);
  }

  @Test
  void theLimitIsInMillisecondsNotWholeSeconds() {
    // The study compared whole seconds: 900 ms counted as "under 100 ms". Here it does not.
    assertThat(STUDY.verdict(latencies(900, 5_000, 100, 900_000), Map.of(), 0)).isEqualTo(Verdict.SLA);
    assertThat(STUDY.shareWithinLatency(latencies(900, 5_000, 100, 900_000))).isEqualTo(90.0);
  }

  @Test
  void timeoutsAndErrorsComeFirst() {
    Histogram oneTimeout = latencies(999, 1_000, 1, 11_000_000);
    assertThat(STUDY.timeouts(oneTimeout)).isEqualTo(1);
    assertThat(STUDY.verdict(oneTimeout, Map.of(), 5)).isEqualTo(Verdict.TIMEOUT);
    assertThat(STUDY.verdict(latencies(1000, 1_000, 0, 0), Map.of(), 1)).isEqualTo(Verdict.ERRORS);
    assertThat(new SlaRule(98, 100_000, 10_000_000, 3, false).verdict(latencies(1000, 1_000, 0, 0), Map.of(), 3))
        .isEqualTo(Verdict.PASS);
  }

  @Test
  void perOperationRuleCatchesASlowMinority() {
    Histogram fast = latencies(990, 1_000, 0, 0);
    Histogram slow = latencies(5, 1_000, 5, 500_000);
    Histogram overall = latencies(995, 1_000, 5, 500_000);
    assertThat(STUDY.verdict(overall, Map.of("READ", fast, "SCAN", slow), 0)).isEqualTo(Verdict.PASS);
    SlaRule strict = new SlaRule(98, 100_000, 10_000_000, 0, true);
    assertThat(strict.verdict(overall, Map.of("READ", fast, "SCAN", slow), 0)).isEqualTo(Verdict.SLA);
  }

  @Test
  void theStudyCodeRuleComparesWholeSeconds() {
    SlaRule asRun = new SlaRule(98, 100_000, 10_000_000, 0, false, SlaRule.Kind.STUDY_CODE);
    // 900 ms has 0 whole seconds: the study's client counted it as within "0.1 s".
    assertThat(asRun.effectiveLimitUs()).isEqualTo(999_999);
    assertThat(asRun.verdict(latencies(900, 5_000, 100, 900_000), Map.of(), 0)).isEqualTo(Verdict.PASS);
    assertThat(asRun.shareWithinLatency(latencies(900, 5_000, 100, 900_000))).isEqualTo(100.0);
    // From one whole second on it is slow: 3% of the requests at 1.2 s fail the 98% rule.
    assertThat(asRun.verdict(latencies(970, 5_000, 30, 1_200_000), Map.of(), 0)).isEqualTo(Verdict.SLA);
    assertThat(asRun.shareWithinLatency(latencies(970, 5_000, 30, 1_200_000))).isEqualTo(97.0);
    // A limit of 1.5 s: slow from 2 s (timedelta.seconds > 1.5 holds from 2).
    assertThat(new SlaRule(98, 1_500_000, 10_000_000, 0, false, SlaRule.Kind.STUDY_CODE).effectiveLimitUs())
        .isEqualTo(1_999_999);
    assertThat(STUDY.effectiveLimitUs()).isEqualTo(100_000);
  }

  @Test
  void aWindowInWhichNothingSucceededNeverPassesWhateverTheErrorsAllowed() {
    SlaRule lenient = new SlaRule(98, 100_000, 10_000_000, 100_000_000, false);
    Histogram none = OperationMeter.newHistogram();
    // 16,261 errors and no success: before, an empty histogram was "100% within the limit", a pass.
    assertThat(lenient.verdict(none, Map.of(), 16_261)).isEqualTo(Verdict.NOTHING);
    // No operation ended at all (a key chooser that never returns): nothing measured, no pass either.
    assertThat(lenient.verdict(none, Map.of(), 0)).isEqualTo(Verdict.NOTHING);
    assertThat(lenient.verdict(latencies(1, 1_000, 0, 0), Map.of(), 16_261)).isEqualTo(Verdict.PASS);
    // More errors than allowed are still said as such.
    assertThat(STUDY.verdict(none, Map.of(), 3)).isEqualTo(Verdict.ERRORS);
  }
}
