package org.geoshard.postgis.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class PgbenchOutputTest {
  /** pgbench 15's output with -P 1 (progress on standard error, merged). */
  private static final String OUTPUT = """
      pgbench (15.20 (Debian 15.20-0+deb12u1))
      progress: 1.0 s, 3000.0 tps, lat 1.300 ms stddev 0.500, 0 failed
      progress: 2.0 s, 4000.0 tps, lat 0.990 ms stddev 0.300, 0 failed
      progress: 3.0 s, 5000.0 tps, lat 0.790 ms stddev 0.200, 0 failed
      progress: 4.0 s, 5200.0 tps, lat 0.770 ms stddev 0.200, 0 failed
      transaction type: near.pgbench
      scaling factor: 1
      query mode: prepared
      number of clients: 4
      number of threads: 4
      maximum number of tries: 1
      duration: 4 s
      number of transactions actually processed: 17200
      number of failed transactions: 0 (0.000%)
      latency average = 0.920 ms
      tps = 4300.000000 (without initial connection time)
      """;

  @Test
  void theRateIsTheMeanOfTheSecondsAfterTheWarmUpAndTheCountIsEveryTransaction() {
    PgbenchOutput.Outcome outcome = PgbenchOutput.parse(OUTPUT, 2);
    assertThat(outcome.transactions()).isEqualTo(17_200);
    assertThat(outcome.throughput()).isCloseTo(5_100, within(1e-9));
    assertThat(outcome.failed()).isZero();
    assertThat(PgbenchOutput.parse(OUTPUT, 0).throughput()).isCloseTo(4_300, within(1e-9));
  }

  @Test
  void outputWithoutTotalsOrWithoutSecondsAfterTheWarmUpIsRefused() {
    assertThatThrownBy(() -> PgbenchOutput.parse("progress: 1.0 s, 5.0 tps", 0))
        .hasMessageContaining("number of transactions actually processed");
    assertThatThrownBy(() -> PgbenchOutput.parse(OUTPUT, 4)).hasMessageContaining("after the 4 s warm-up");
  }
}
