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
  void theFieldsBeyondIdAreWhatTheUpsertMustNameBesideIt() throws Exception {
    assertThat(withLklKey("_id:1,CellId:1").lklKeyBeyondId()).containsExactly("CellId");
    assertThat(withLklKey("_id:hashed").lklKeyBeyondId()).isEmpty();
    assertThat(withLklKey("_id:1").lklKeyBeyondId()).isEmpty();
    assertThat(MongoLastLocationSettings.fromProperties(new Properties()).lklKeyBeyondId()).isEmpty();
  }

  /**
   * A key beyond _id is written with the whole key on every version ({@link WholeKeyUpsert}), so no FCV
   * refuses it; a move changes a key value, which needs a retryable write: retryWrites=false is refused.
   */
  @Test
  void aKeyBeyondIdIsRefusedOnlyWhereRetryableWritesAreTurnedOff() throws Exception {
    for (String fcv : List.of("4.4", "6.0", "7.0", "8.0")) {
      ServerFacts cluster = VersionRulesTest.sharded(fcv + ".1", fcv);
      assertThat(withLklKey("_id:1,CellId:1").lklKeyProblem(cluster, null)).as(fcv).isNull();
      assertThat(withLklKey("_id:1,CellId:1").lklKeyProblem(cluster, true)).as(fcv).isNull();
      assertThat(withLklKey("_id:1,CellId:1").lklKeyProblem(cluster, false)).as(fcv)
          .startsWith("Property 'mongodb.ll.lkl.shardkey' is '_id:1,CellId:1', so a user's move to another cell")
          .contains("(mongodb.url) sets retryWrites=false");
      assertThat(withLklKey("_id:hashed").lklKeyProblem(cluster, false)).as(fcv).isNull();
    }
    ServerFacts replicaSet = new ServerFacts(ServerVersion.parse("6.0.19"), ServerFacts.Kind.REPLICA_SET, "rs0",
        List.of(), ServerVersion.parse("6.0"));
    assertThat(withLklKey("_id:1,CellId:1").lklKeyProblem(replicaSet, false)).as("nothing is sharded there").isNull();
  }

  @Test
  void preflightSaysHowAKeyBeyondIdIsWrittenAndNothingForTheIdKeys() throws Exception {
    assertThat(withLklKey("_id:1,CellId:1").lklKeyNote(VersionRulesTest.sharded("8.0.5", "8.0")))
        .startsWith("key _id:1,CellId:1: every LKL_UPSERT names the whole key (the event's CellId)");
    for (String key : List.of("_id:hashed", "_id:1")) {
      assertThat(withLklKey(key).lklKeyNote(VersionRulesTest.sharded("8.0.5", "8.0"))).as(key).isNull();
    }
  }
}
