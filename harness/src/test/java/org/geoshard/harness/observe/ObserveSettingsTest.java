package org.geoshard.harness.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Properties;
import org.geoshard.harness.config.ConfigException;
import org.junit.jupiter.api.Test;

class ObserveSettingsTest {
  private static Properties props(String... pairs) {
    Properties p = new Properties();
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return p;
  }

  @Test
  void samplesOnceASecondByDefaultAndZeroTurnsItOff() throws ConfigException {
    ObserveSettings defaults = ObserveSettings.fromProperties(props());
    assertThat(defaults.interval()).isEqualTo(Duration.ofSeconds(1));
    assertThat(defaults.enabled()).isTrue();
    assertThat(defaults.nodeExporters()).isEmpty();
    assertThat(ObserveSettings.fromProperties(props("observe.interval", "0")).enabled()).isFalse();
    assertThat(ObserveSettings.fromProperties(props("observe.interval", "2.5")).interval()).isEqualTo(Duration.ofMillis(2500));
  }

  @Test
  void readsTheNodeExporterList() throws ConfigException {
    ObserveSettings s = ObserveSettings.fromProperties(props("observe.nodeexporter", "10.0.0.5:9100, db-1:9100"));
    assertThat(s.nodeExporters()).containsExactly("10.0.0.5:9100", "db-1:9100");
  }

  @Test
  void namesThePropertyAtFault() {
    assertThatThrownBy(() -> ObserveSettings.fromProperties(props("observe.nodeexporter", "10.0.0.5:9100,http://x/metrics")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("'observe.nodeexporter'")
        .hasMessageContaining("http://x/metrics");
    assertThatThrownBy(() -> ObserveSettings.fromProperties(props("observe.nodeexporter", "db-1")))
        .hasMessageContaining("host:port");
    assertThatThrownBy(() -> ObserveSettings.fromProperties(props("observe.interval", "-1")))
        .hasMessageContaining("'observe.interval'");
    assertThatThrownBy(() -> ObserveSettings.fromProperties(props("observe.interval", "0.01")))
        .hasMessageContaining("'observe.interval'").hasMessageContaining("ten times a second");
  }
}
