package org.geoshard.lastlocation.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Properties;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.lastlocation.LastLocationSettings;
import org.junit.jupiter.api.Test;

class LocationStreamTest {
  @Test
  void carriesWhatTheStreamsPropertiesSay() throws Exception {
    Properties p = new Properties();
    p.setProperty(LastLocationSettings.HISTORY_BATCH_SIZE, "250");
    p.setProperty(LastLocationSettings.CLOCK_START, "2023-11-14T22:13:20Z");
    p.setProperty(LastLocationSettings.READ_NEAR, "0.1");
    p.setProperty(LastLocationSettings.READ_LKL, "0.5");
    p.setProperty(LastLocationSettings.READ_RANGE, "0.4");
    LocationStream stream = LocationStream.fromProperties(p);
    LastLocationSettings settings = LastLocationSettings.fromProperties(p);
    assertThat(stream.historyBatchSize()).isEqualTo(250);
    assertThat(stream.clockStartMs()).isEqualTo(1_700_000_000_000L);
    assertThat(stream.nearQueries()).isTrue();
    assertThat(stream.historySplit()).isEqualTo(settings.historySplit());
    assertThat(stream.keepsLastKnownLocation()).isEqualTo(settings.keepsLastKnownLocation());
  }

  @Test
  void aRefusedPropertyIsNamed() {
    Properties p = new Properties();
    p.setProperty(LastLocationSettings.HISTORY_BATCH_SIZE, "0");
    assertThatThrownBy(() -> LocationStream.fromProperties(p)).isInstanceOf(ConfigException.class)
        .hasMessageContaining(LastLocationSettings.HISTORY_BATCH_SIZE);
  }
}
