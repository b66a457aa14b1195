package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The Last-Known-Location key against the cluster that must upsert by it. */
class MongoLastLocationSettingsTest {
  private static MongoLastLocationSettings withLklKey(String key) throws Exception {
    Properties p = new Properties();
    p.setProperty(MongoLastLocationSettings.LKL_SHARD_KEY, key);
    return MongoLastLocationSettings.fromProperties(p);
  }

  @Test
  void aKeyBeyondIdIsRefusedWhereAnUpsertMustNameTheWholeShardKey() throws Exception {
    String problem = withLklKey("_id:1,CellId:1").lklKeyProblem(VersionRulesTest.sharded("6.0.19", "6.0"));
    assertThat(problem).startsWith("Property 'mongodb.ll.lkl.shardkey' is '_id:1,CellId:1', but the Last-Known-Location"
        + " cluster runs 6.0.19 sharded").contains("SERVER-1689").contains("Use _id:hashed or _id:1");
    assertThat(withLklKey("_id:1,CellId:1").lklKeyProblem(VersionRulesTest.sharded("7.0.12", "6.0")))
        .as("a 7.0 binary at FCV 6.0 still needs the whole key").isNotNull();
  }

  @Test
  void aKeyBeyondIdIsAcceptedFrom70AndTheIdKeysEverywhere() throws Exception {
    assertThat(withLklKey("_id:1,CellId:1").lklKeyProblem(VersionRulesTest.sharded("7.0.12", "7.0"))).isNull();
    for (String key : List.of("_id:hashed", "_id:1")) {
      assertThat(withLklKey(key).lklKeyProblem(VersionRulesTest.sharded("4.4.29", "4.4"))).as(key).isNull();
    }
    ServerFacts replicaSet = new ServerFacts(ServerVersion.parse("6.0.19"), ServerFacts.Kind.REPLICA_SET, "rs0",
        List.of(), ServerVersion.parse("6.0"));
    assertThat(withLklKey("_id:1,CellId:1").lklKeyProblem(replicaSet)).as("nothing is sharded there").isNull();
  }

  /**
   * From FCV 7.0 the upsert of a key beyond _id is accepted, but equality on _id targets one shard and is
   * sent there without the whole key: the upsert of SERVER-106069. Said before the start, on every layout.
   */
  @Test
  void aKeyBeyondIdIsARiskWhereTheUpsertIsAcceptedAndNoneElsewhere() throws Exception {
    assertThat(withLklKey("_id:1,CellId:1").lklKeyRisk(VersionRulesTest.sharded("8.0.5", "8.0")))
        .startsWith("Property 'mongodb.ll.lkl.shardkey' is '_id:1,CellId:1' on 8.0.5 sharded")
        .contains("SERVER-106069").contains("use _id:hashed or _id:1");
    assertThat(withLklKey("_id:1,CellId:1").lklKeyRisk(VersionRulesTest.sharded("7.0.12", "7.0"))).isNotNull();
    assertThat(withLklKey("_id:1,CellId:1").lklKeyRisk(VersionRulesTest.sharded("6.0.19", "6.0")))
        .as("refused there already (lklKeyProblem)").isNull();
    for (String key : List.of("_id:hashed", "_id:1")) {
      assertThat(withLklKey(key).lklKeyRisk(VersionRulesTest.sharded("8.0.5", "8.0"))).as(key).isNull();
    }
  }
}
