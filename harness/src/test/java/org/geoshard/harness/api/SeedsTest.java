package org.geoshard.harness.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SeedsTest {
  @Test
  void sameSeedPurposeAndThreadGiveTheSameStream() {
    Properties p = new Properties();
    p.setProperty("seed", "42");
    long[] a = Seeds.forThread(p, "geo", 3).longs(5).toArray();
    long[] b = Seeds.forThread(p, "geo", 3).longs(5).toArray();
    assertThat(a).containsExactly(b);
  }

  @Test
  void threadsPurposesAndSeedsGiveDifferentStreams() {
    Set<Long> firsts = new HashSet<>();
    for (long seed = 0; seed < 10; seed++) {
      for (int thread = 0; thread < 100; thread++) {
        firsts.add(Seeds.derive(seed, "geo", thread));
        firsts.add(Seeds.derive(seed, "ll", thread));
      }
    }
    assertThat(firsts).hasSize(2000);
  }

  @Test
  void derivedSeedsHaveBalancedBits() {
    // Neighbouring indexes must not give correlated seeds: each bit is set about half the time.
    int n = 20_000;
    int[] ones = new int[64];
    for (int i = 0; i < n; i++) {
      long v = Seeds.derive(1, "x", i);
      for (int bit = 0; bit < 64; bit++) {
        ones[bit] += (int) ((v >>> bit) & 1);
      }
    }
    for (int bit = 0; bit < 64; bit++) {
      // Binomial(20000, 0.5): sd ~ 71; 5 sd is far beyond chance.
      assertThat(ones[bit]).as("bit %d", bit).isBetween(n / 2 - 355, n / 2 + 355);
    }
  }

  @Test
  void defaultAndMalformedSeeds() {
    assertThat(Seeds.runSeed(new Properties())).isEqualTo(1L);
    Properties bad = new Properties();
    bad.setProperty("seed", "abc");
    assertThatThrownBy(() -> Seeds.runSeed(bad)).hasMessageContaining("Property 'seed'");
  }

  @Test
  void theSeedIsReadAsTheRunSettingsReadIt() throws Exception {
    for (String value : new String[] {"42", " 1_000 ", "-7", "9223372036854775807"}) {
      Properties p = new Properties();
      p.setProperty("seed", value);
      p.setProperty("workload", "x");
      assertThat(Seeds.runSeed(p)).as(value)
          .isEqualTo(org.geoshard.harness.run.RunSettings.fromProperties(org.geoshard.harness.run.Phase.LOAD, p, "t").seed());
    }
  }
}
