package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.WriteConcern;
import org.geoshard.harness.config.ConfigException;
import org.junit.jupiter.api.Test;

class MongoWriteSettingsTest {
  @Test
  void defaultsAreTheStudysBatchAndYcsbsOneAtATime() throws Exception {
    MongoWriteSettings w = MongoWriteSettings.builder().build();
    assertThat(w.writeConcern()).isNull();
    assertThat(w.geoBatchSize()).isEqualTo(100);
    assertThat(w.ycsbBatchSize()).isEqualTo(1);
    assertThat(w.upsert()).isFalse();
  }

  @Test
  void oneBatchSizeForBoth() throws Exception {
    MongoWriteSettings w = MongoWriteSettings.builder().batchSize(500).build();
    assertThat(w.geoBatchSize()).isEqualTo(500);
    assertThat(w.ycsbBatchSize()).isEqualTo(500);
  }

  @Test
  void aBatchOutOfRangeIsRefusedNamingTheProperty() {
    assertThatThrownBy(() -> MongoWriteSettings.builder().batchSize(100_001).build()).isInstanceOf(ConfigException.class)
        .hasMessage("Property 'batchsize' must be from 1 to 100000, but is 100001.");
  }

  @Test
  void equalWhenEveryValueIs() throws Exception {
    MongoWriteSettings a = MongoWriteSettings.builder().writeConcern(WriteConcern.MAJORITY).batchSize(10).upsert(true).build();
    MongoWriteSettings b = MongoWriteSettings.builder().writeConcern(WriteConcern.MAJORITY).batchSize(10).upsert(true).build();
    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    assertThat(MongoWriteSettings.builder().writeConcern(WriteConcern.W1).batchSize(10).upsert(true).build()).isNotEqualTo(a);
    assertThat(MongoWriteSettings.builder().writeConcern(WriteConcern.MAJORITY).batchSize(10).build()).isNotEqualTo(a);
    assertThat(a.toString()).contains("w=majority");
  }
}
