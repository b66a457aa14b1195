package org.geoshard.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PacerTest {
  @Test
  void aRateIsSharedByTheThreads() {
    Pacer pacer = new Pacer(1000, 4, false);
    assertThat(pacer.intervalNanos()).as("250 ops/s each").isEqualTo(4_000_000);
    pacer.offer(2000, 4);
    assertThat(pacer.intervalNanos()).isEqualTo(2_000_000);
    assertThat(pacer.paused()).isFalse();
  }

  @Test
  void zeroIsUnpacedForTheMainThreadsAndPausedForAGroup() {
    Pacer main = new Pacer(0, 8, false);
    assertThat(main.intervalNanos()).isZero();
    assertThat(main.paused()).isFalse();
    Pacer group = new Pacer(0, 2, true);
    assertThat(group.paused()).isTrue();
    group.offer(10, 2);
    assertThat(group.paused()).isFalse();
    assertThat(group.intervalNanos()).isEqualTo(200_000_000);
  }
}
