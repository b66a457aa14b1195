package org.geoshard.lastlocation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Properties;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.lastlocation.contract.HistorySplit;
import org.junit.jupiter.api.Test;

class LastLocationSettingsTest {
  @Test
  void defaultsAndSweep() throws ConfigException {
    Properties p = new Properties();
    p.setProperty("ll.sweep.rates", "0, 400,1000");
    p.setProperty("ll.history.split", "day");
    LastLocationSettings s = LastLocationSettings.fromProperties(p);
    assertThat(s.users()).isEqualTo(100_000);
    assertThat(s.sweepRates()).containsExactly(0.0, 400.0, 1000.0);
    assertThat(s.historySplit()).isEqualTo(HistorySplit.DAY);
    assertThat(s.clockStartMs()).isEqualTo(1_767_225_600_000L);
    assertThat(s.readLkl() + s.readRange() + s.readNear()).isEqualTo(1.0);
  }

  @Test
  void reportsEveryMistake() {
    Properties p = new Properties();
    p.setProperty("ll.sweep.rates", "0,fast,-3");
    p.setProperty("ll.clock.start", "yesterday");
    p.setProperty("ll.read.proportion.near", "0.5");
    p.setProperty("ll.users", "2");
    assertThatThrownBy(() -> LastLocationSettings.fromProperties(p))
        .isInstanceOf(ConfigException.class)
        .satisfies(e -> assertThat(((ConfigException) e).problems()).isEqualTo(List.of(
            "Property 'll.clock.start' must be an ISO-8601 instant such as 2026-01-01T00:00:00Z, but is 'yesterday'.",
            "Property 'll.sweep.rates' must be a comma-separated list of rates (events/s, 0 or more), but has 'fast'.",
            "Property 'll.sweep.rates' must be a comma-separated list of rates (events/s, 0 or more), but has '-3'.",
            "Properties ll.read.proportion.lkl (0.9), ll.read.proportion.range (0.1) and ll.read.proportion.near (0.5) must add up to 1.",
            "Property 'll.users' (2) must be at least 'll.writers' (4): every writer owns its own users.")));
  }

  @Test
  void theInsertOnlyModeKeepsNoLastKnownLocationAndOnlyHistoryIsAsked() throws ConfigException {
    Properties p = new Properties();
    assertThat(LastLocationSettings.fromProperties(p).keepsLastKnownLocation()).isTrue();
    assertThat(LastLocationSettings.fromProperties(p).nearQueries()).isFalse();
    p.setProperty("ll.write.mode", "insertonly");
    assertThatThrownBy(() -> LastLocationSettings.fromProperties(p))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("'ll.write.mode' is insertonly, which keeps no Last-Known-Location")
        .hasMessageContaining("ll.read.proportion.range=1");
    p.setProperty("ll.read.proportion.lkl", "0");
    p.setProperty("ll.read.proportion.range", "1");
    LastLocationSettings s = LastLocationSettings.fromProperties(p);
    assertThat(s.writeMode()).isEqualTo(LastLocationSettings.WriteMode.INSERTONLY);
    assertThat(s.keepsLastKnownLocation()).isFalse();
    p.setProperty("ll.read.proportion.near", "0.2");
    p.setProperty("ll.read.proportion.range", "0.8");
    p.setProperty("ll.write.mode", "upsert");
    assertThat(LastLocationSettings.fromProperties(p).nearQueries()).isTrue();
  }
}
