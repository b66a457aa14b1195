package org.geoshard.harness.ramp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.HdrHistogram.Histogram;
import org.geoshard.harness.measure.Interval;
import org.geoshard.harness.measure.IntervalSample;
import org.geoshard.harness.measure.OperationMeter;
import org.junit.jupiter.api.Test;

/** A step's window judges the latency rule on successful operations; failures are errors (and timeouts). */
class WindowTest {
  private static Interval second(long index, long fastOk, long slowFailures, long failureMicros) {
    Histogram ok = OperationMeter.newHistogram();
    ok.recordValueWithCount(1_000, fastOk);
    Histogram failed = OperationMeter.newHistogram();
    if (slowFailures > 0) {
      failed.recordValueWithCount(failureMicros, slowFailures);
    }
    return new Interval(index, index * 1000, index * 1000 + 1000, 4, List.of(IntervalSample.of("READ", ok, failed)));
  }

  @Test
  void slowFailuresDoNotBreakTheLatencyRuleButCountAsErrors() {
    // 90 fast successes and 10 failures of 2 s: with failures mixed in, 90% within 50 ms would break a 98% rule.
    Window window = new Window();
    window.add(second(1, 90, 10, 2_000_000));
    SlaRule rule = new SlaRule(98, 50_000, 10_000_000, 100, false);
    StepRecord step = window.close(1, 4, null, rule, true);
    assertThat(step.verdict()).isEqualTo(Verdict.PASS);
    assertThat(step.withinLatencyPercent()).isEqualTo(100.0);
    assertThat(step.operations()).isEqualTo(100);
    assertThat(step.errors()).isEqualTo(10);
    assertThat(step.throughput()).isEqualTo(90.0);
    assertThat(step.p99Us()).isLessThan(50_000);
    assertThat(step.perOperation().get("READ").failed().count()).isEqualTo(10);

    // The same failures over the errors allowed fail the step on errors.
    Window strict = new Window();
    strict.add(second(1, 90, 10, 2_000_000));
    assertThat(strict.close(1, 4, null, new SlaRule(98, 50_000, 10_000_000, 0, false), true).verdict())
        .isEqualTo(Verdict.ERRORS);
  }

  @Test
  void aFailureSlowerThanTheTimeoutIsATimeout() {
    Window window = new Window();
    window.add(second(1, 90, 1, 20_000_000));
    StepRecord step = window.close(1, 4, null, new SlaRule(98, 50_000, 10_000_000, 100, false), true);
    assertThat(step.timeouts()).isEqualTo(1);
    assertThat(step.verdict()).isEqualTo(Verdict.TIMEOUT);
  }

  @Test
  void aStepOfFailuresOnlyIsNothingAndNeverThePeak() {
    SlaRule lenient = new SlaRule(98, 50_000, 10_000_000, 100_000_000, false);
    Window failing = new Window();
    failing.add(second(1, 0, 500, 1_000));
    failing.add(second(2, 0, 500, 1_000));
    StepRecord first = failing.close(1, 4, null, lenient, true);
    assertThat(first.verdict()).isEqualTo(Verdict.NOTHING);
    assertThat(first.throughput()).isZero();
    Window empty = new Window();
    empty.add(second(3, 0, 0, 0));
    StepRecord second = empty.close(2, 8, null, lenient, true);
    assertThat(second.verdict()).isEqualTo(Verdict.NOTHING);
    RampResult ramp = RampResult.of(RampMode.THREADS, lenient, List.of(first, second));
    assertThat(ramp.maxSustainedThroughput()).as("none, not 0.0 at step 1").isNull();
    assertThat(ramp.peakStep()).isNull();
  }
}
