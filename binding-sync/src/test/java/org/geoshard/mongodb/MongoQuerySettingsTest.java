package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.ReadPreference;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.mongodb.MongoSettings.MaxDistance;
import org.junit.jupiter.api.Test;

class MongoQuerySettingsTest {
  @Test
  void defaultsAreTheUrlsPreferenceAndTheDrawnDistance() throws Exception {
    MongoQuerySettings q = MongoQuerySettings.builder().build();
    assertThat(q.readPreference()).isNull();
    assertThat(q.maxDistance()).isEqualTo(MaxDistance.DRAWN);
  }

  @Test
  void aMissingDistanceIsRefused() {
    assertThatThrownBy(() -> MongoQuerySettings.builder().maxDistance(null).build()).isInstanceOf(ConfigException.class)
        .hasMessage("Property 'mongodb.maxdistance' must be drawn or scaled.");
  }

  @Test
  void equalWhenEveryValueIs() throws Exception {
    MongoQuerySettings a = MongoQuerySettings.builder().readPreference(ReadPreference.nearest())
        .maxDistance(MaxDistance.SCALED).build();
    assertThat(a).isEqualTo(MongoQuerySettings.builder().readPreference(ReadPreference.nearest())
        .maxDistance(MaxDistance.SCALED).build()).hasSameHashCodeAs(MongoQuerySettings.builder()
        .readPreference(ReadPreference.nearest()).maxDistance(MaxDistance.SCALED).build());
    assertThat(MongoQuerySettings.builder().maxDistance(MaxDistance.SCALED).build()).isNotEqualTo(a);
    assertThat(MongoQuerySettings.builder().readPreference(ReadPreference.nearest()).build()).isNotEqualTo(a);
  }
}
