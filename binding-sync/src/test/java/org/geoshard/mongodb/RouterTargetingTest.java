package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SortedSet;
import java.util.TreeSet;
import org.bson.Document;
import org.geoshard.harness.api.Preflight.Check;
import org.geoshard.harness.api.Preflight.Verdict;
import org.junit.jupiter.api.Test;

/**
 * The router's answer set against the owners of the query's cells. The explain answers have the shape
 * mongos builds (src/mongo/s/cluster_explain.cpp, buildPlannerInfo and buildExecStats: stage SINGLE_SHARD
 * for one shard, SHARD_MERGE for several, each with shards[].shardName), as jstests/sharding/explain_cmd.js
 * reads them (queryPlanner.winningPlan.shards, executionStats.executionStages.shards).
 */
class RouterTargetingTest {
  private static SortedSet<String> reached(String explain) {
    return new TreeSet<>(MongoExplain.parse(Document.parse(explain)).targets());
  }

  private static SortedSet<String> set(String... shards) {
    return new TreeSet<>(java.util.List.of(shards));
  }

  @Test
  void aQueryThatReachesExactlyTheOwnersOfItsCellsIsTargeted() {
    Check check = RouterTargeting.judged(reached(MongoExplainTest.SINGLE_SHARD), set("rs1"), 3, new long[] {7, 8});
    assertThat(check.status()).isEqualTo(Verdict.OK);
    assertThat(check.detail()).isEqualTo("explain of a near query reached 1 of 3 shards (rs1), the shards owning its"
        + " 2 cells: rs1");
    assertThat(RouterTargeting.answered(check)).isTrue();
  }

  @Test
  void aQueryThatReachesShardsOwningNoneOfItsCellsIsNotTargeted() {
    Check check = RouterTargeting.judged(reached(MongoExplainTest.SHARD_MERGE), set("rs1"), 3, new long[] {7});
    assertThat(check.status()).isEqualTo(Verdict.WARN);
    assertThat(check.detail()).startsWith("explain of a near query reached 3 of 3 shards (rs0, rs1, rs2), the shards"
        + " owning its 1 cell: rs1: the router does not target near queries by the covering");
  }

  @Test
  void aHashedKeysBroadcastIsWhatIsExpected() {
    Check check = RouterTargeting.judged(reached(MongoExplainTest.SHARD_MERGE), set("rs0", "rs1", "rs2"), 3, null);
    assertThat(check.status()).isEqualTo(Verdict.OK);
    assertThat(check.detail()).contains("the shards holding chunks of the collection: rs0, rs1, rs2")
        .contains("a broadcast, as expected");
  }

  @Test
  void fewerShardsThanOwnTheCellsMeansTheChunksMovedMeanwhile() {
    Check check = RouterTargeting.judged(set("rs1"), set("rs1", "rs2"), 3, new long[] {7, 9});
    assertThat(check.status()).isEqualTo(Verdict.WARN);
    assertThat(check.detail()).contains("chunks moved between the explain and the read of config.chunks");
  }

  @Test
  void aSkippedOrRefusedLineIsNotAnAnswer() {
    assertThat(RouterTargeting.answered(Check.ok(RouterTargeting.NAME, "skipped: nothing loaded"))).isFalse();
    assertThat(RouterTargeting.answered(null)).isFalse();
  }
}
