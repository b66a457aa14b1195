package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.mongodb.MongoSettings.IndexWhen;
import org.junit.jupiter.api.Test;

class MongoPreparationSettingsTest {
  @Test
  void defaultsLeaveTheCollectionAloneAndIndexAfterTheLoad() throws Exception {
    MongoPreparationSettings p = MongoPreparationSettings.builder().build();
    assertThat(p.drop()).isFalse();
    assertThat(p.shardKey()).isNull();
    assertThat(p.numInitialChunks()).isNull();
    assertThat(p.indexWhen()).isEqualTo(IndexWhen.AFTER);
    assertThat(p.indexPoll(TimeUnit.MILLISECONDS)).isEqualTo(250);
    assertThat(p.indexTimeout(TimeUnit.HOURS)).isEqualTo(2);
  }

  @Test
  void everyProblemAtOnce() {
    assertThatThrownBy(() -> MongoPreparationSettings.builder().indexTimeout(0, TimeUnit.MILLISECONDS).numInitialChunks(8)
        .indexWhen(null).indexPoll(5, TimeUnit.MILLISECONDS).build())
        .isInstanceOf(ConfigException.class)
        .satisfies(e -> assertThat(((ConfigException) e).problems()).containsExactly(
            "Property 'mongodb.index.timeout.ms' must be at least 1 (milliseconds), but is 0.",
            "Property 'mongodb.numInitialChunks' applies only to a hashed shard key, but 'mongodb.shardkey' is not set.",
            "Property 'mongodb.index.when' must be before or after.",
            "Property 'mongodb.index.pollms' must be from 10 to 10000 (milliseconds), but is 5."));
  }

  @Test
  void initialChunksGoWithAHashedKey() throws Exception {
    MongoPreparationSettings p = MongoPreparationSettings.builder().shardKey(ShardKey.of("Name:hashed")).numInitialChunks(8)
        .build();
    assertThat(p.numInitialChunks()).isEqualTo(8);
  }

  @Test
  void equalWhenEveryValueIs() throws Exception {
    MongoPreparationSettings a = MongoPreparationSettings.builder().drop(true).shardKey(ShardKey.of("Name:hashed"))
        .indexWhen(IndexWhen.BEFORE).build();
    MongoPreparationSettings b = MongoPreparationSettings.builder().drop(true).shardKey(ShardKey.of("Name:hashed"))
        .indexWhen(IndexWhen.BEFORE).build();
    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    assertThat(MongoPreparationSettings.builder().drop(true).shardKey(ShardKey.of("Name:hashed")).build()).isNotEqualTo(a);
    assertThat(MongoPreparationSettings.builder().drop(true).shardKey(ShardKey.of("City:1")).indexWhen(IndexWhen.BEFORE)
        .build()).isNotEqualTo(a);
  }
}
