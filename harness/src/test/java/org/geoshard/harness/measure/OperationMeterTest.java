package org.geoshard.harness.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class OperationMeterTest {
  @Test
  void sumsStripesAndResetsEachInterval() {
    OperationMeter meter = new OperationMeter("READ", 4);
    for (int thread = 0; thread < 8; thread++) {
      meter.record(thread, 100 * (thread + 1), thread != 3);
    }
    IntervalSample first = meter.sampleInterval();
    assertThat(first.count()).isEqualTo(8);
    assertThat(first.errors()).isEqualTo(1);
    assertThat(first.histogram().getMaxValue()).isBetween(800L, 801L);
    // The failure (thread 3, 400 us) is kept apart from the successes' latencies.
    assertThat(first.histogram().getTotalCount()).isEqualTo(7);
    assertThat(first.failed().getTotalCount()).isEqualTo(1);
    assertThat(first.failed().getMaxValue()).isBetween(400L, 401L);
    assertThat(first.ok()).isEqualTo(7);
    IntervalSample second = meter.sampleInterval();
    assertThat(second.isEmpty()).isTrue();
    meter.record(0, 5, true);
    assertThat(meter.sampleInterval().count()).isEqualTo(1);
  }

  @Test
  void clampsValuesOutsideTheRange() {
    OperationMeter meter = new OperationMeter("X", 1);
    meter.record(0, -5, true);
    meter.record(0, TimeUnit.HOURS.toMicros(5), true);
    IntervalSample sample = meter.sampleInterval();
    assertThat(sample.count()).isEqualTo(2);
    assertThat(sample.histogram().getMinValue()).isZero();
    assertThat(sample.histogram().getMaxValue()).isGreaterThanOrEqualTo(OperationMeter.HIGHEST_MICROS);
  }

  @Test
  void metersRoundStripesToAPowerOfTwoAndKeepOrder() {
    assertThat(new Meters(1).stripes()).isEqualTo(1);
    assertThat(new Meters(3).stripes()).isEqualTo(4);
    assertThat(new Meters(4).stripes()).isEqualTo(4);
    assertThat(new Meters(5).stripes()).isEqualTo(8);
    Meters meters = new Meters(2);
    meters.meter("B").record(0, 1, true);
    meters.meter("A").record(0, 1, true);
    meters.meter("C");
    assertThat(meters.sampleAll()).extracting(IntervalSample::operation).containsExactly("B", "A");
    assertThat(meters.meter("B")).isSameAs(meters.meter("B"));
  }
}
