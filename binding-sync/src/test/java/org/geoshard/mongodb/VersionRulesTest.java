package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.geoshard.harness.api.Preflight;
import org.geoshard.harness.api.Preflight.Check;
import org.geoshard.mongodb.VersionRules.NearTargeting;
import org.junit.jupiter.api.Test;

/** The version table, row by row, at the releases where a row changes (binding-sync/README.md). */
class VersionRulesTest {
  static ServerFacts sharded(String binary, String fcv) {
    return new ServerFacts(ServerVersion.parse(binary), ServerFacts.Kind.SHARDED, null, List.of(),
        fcv == null ? null : ServerVersion.parse(fcv));
  }

  @Test
  void nearQueriesAreTargetedByTheCellKeyFromRouter70AndNotPinnedWithin50And60() {
    assertThat(sharded("4.4.29", "4.4").rules().nearTargeting()).isEqualTo(NearTargeting.EVERY_SHARD);
    assertThat(sharded("5.0.0", "5.0").rules().nearTargeting()).isEqualTo(NearTargeting.NOT_PINNED);
    assertThat(sharded("5.0.31", "5.0").rules().nearTargeting()).isEqualTo(NearTargeting.NOT_PINNED);
    // ce3443291 shows master after the 6.0 branch point, not which 6.0.x shipped it: asked by explain instead.
    assertThat(sharded("6.0.0", "6.0").rules().nearTargeting()).isEqualTo(NearTargeting.NOT_PINNED);
    assertThat(sharded("6.0.19", "6.0").rules().nearTargeting()).isEqualTo(NearTargeting.NOT_PINNED);
    // The router's code plans the query: a 7.0 binary still at FCV 6.0 targets.
    assertThat(sharded("7.0.12", "6.0").rules().nearTargeting()).isEqualTo(NearTargeting.TARGETED);
    assertThat(sharded("8.0.4", "8.0").rules().nearTargeting()).isEqualTo(NearTargeting.TARGETED);
  }

  @Test
  void anUpsertNeedsTheWholeShardKeyBeforeFeatureCompatibility70() {
    assertThat(sharded("6.0.19", "6.0").rules().upsertNeedsWholeShardKey()).isTrue();
    assertThat(sharded("7.0.12", "6.0").rules().upsertNeedsWholeShardKey()).as("an upgrade not finished").isTrue();
    assertThat(sharded("7.0.12", "7.0").rules().upsertNeedsWholeShardKey()).isFalse();
    assertThat(sharded("7.0.12", null).rules().upsertNeedsWholeShardKey()).as("FCV unreadable: the binary").isFalse();
  }

  @Test
  void rangesMoveWithMoveRangeFrom60AndTheBalancerWeighsDataFrom603() {
    assertThat(sharded("5.0.31", "5.0").rules().hasMoveRange()).isFalse();
    assertThat(sharded("6.0.0", "6.0").rules().hasMoveRange()).isTrue();
    assertThat(sharded("6.0.19", "5.0").rules().hasMoveRange()).as("moveChunk until the FCV is 6.0").isFalse();
    assertThat(sharded("6.0.2", "6.0").rules().balancesByDataSize()).isFalse();
    assertThat(sharded("6.0.3", "6.0").rules().balancesByDataSize()).isTrue();
    assertThat(sharded("4.4.29", "4.4").rules().balancesByDataSize()).isFalse();
  }

  @Test
  void numInitialChunksIsHonouredBeforeFeatureCompatibility72() {
    assertThat(sharded("7.0.12", "7.0").rules().honoursNumInitialChunks()).isTrue();
    assertThat(sharded("8.0.4", "7.0").rules().honoursNumInitialChunks()).isTrue();
    assertThat(sharded("8.0.4", "8.0").rules().honoursNumInitialChunks()).isFalse();
  }

  @Test
  void indexBuildsRunOnTheirOwnThreadFrom44() {
    assertThat(new ServerFacts(ServerVersion.parse("4.2.0"), ServerFacts.Kind.STANDALONE, null, List.of(), null)
        .rules().indexBuildOnItsOwnThread()).isFalse();
    assertThat(sharded("4.4.0", "4.4").rules().indexBuildOnItsOwnThread()).isTrue();
  }

  @Test
  void theRowsOfAScenarioSayWhatAppliesAndWhere() {
    List<VersionRules.Row> rows = sharded("4.4.29", "4.4").rules().rows(true, true);
    assertThat(rows).extracting(VersionRules.Row::topic).containsExactly(VersionRules.NEAR_TOPIC, "moving a range",
        "balancer", "hashed presplit", "Last-Known-Location upsert", "index build progress");
    assertThat(rows.get(0).applies()).startsWith("every shard: mongos 4.4.29");
    assertThat(rows.get(0).source()).contains("chunk_manager.cpp");
    assertThat(rows.get(1).applies()).startsWith("moveChunk");
    assertThat(rows.get(4).applies()).startsWith("an upsert must name the whole shard key")
        .contains("the binding names the whole key in every write");
    assertThat(sharded("8.0.4", "8.0").rules().rows(false, true).get(3).applies()).contains("SERVER-106069");
    assertThat(sharded("8.0.4", "8.0").rules().rows(false, false)).extracting(VersionRules.Row::topic)
        .doesNotContain(VersionRules.NEAR_TOPIC, "Last-Known-Location upsert");
  }

  @Test
  void preflightWarnsOfARouterThatCannotTargetByTheCellKeyAndFailsAnLklKeyItCannotUpsert() {
    List<Check> old = MongoPreflight.versionChecks(sharded("4.4.29", "4.4"), true, null);
    assertThat(MongoPreflightTest.named(old, VersionRules.NEAR_TOPIC).status()).isEqualTo(Preflight.Verdict.WARN);
    assertThat(old).filteredOn(c -> c.status() == Preflight.Verdict.FAIL).isEmpty();
    List<Check> current = MongoPreflight.versionChecks(sharded("8.0.4", "8.0"), true, "the key");
    assertThat(MongoPreflightTest.named(current, VersionRules.NEAR_TOPIC).status()).isEqualTo(Preflight.Verdict.OK);
    assertThat(MongoPreflightTest.named(current, "Last-Known-Location upsert").status()).isEqualTo(Preflight.Verdict.FAIL);
  }
}
