package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.MongoCommandException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.bson.Document;
import org.geoshard.geo.cells.CellCounts;
import org.geoshard.geo.cells.CellRanges;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The layout's command sequence (the same code the Docker suites and a real run use) sent, for each
 * version of the CI matrix, to a {@link ScriptedRouter} that refuses what that version refuses: the
 * sequence must be accepted by every version, and shape the collection as the version does.
 */
class LayoutCommandsTest {
  /** A client never used: ClusterPreparation takes one, the commands under test go to the router. */
  private final MongoClient unused = MongoClients.create("mongodb://localhost:1/ycsb");

  @AfterEach
  void close() {
    unused.close();
  }

  private static ServerFacts facts(String version) {
    return new ServerFacts(ServerVersion.parse(version), ServerFacts.Kind.SHARDED, null, List.of(), ServerVersion.parse(version));
  }

  private ClusterPreparation preparation(String version, ScriptedRouter router, Integer chunks) throws Exception {
    MongoSettings.Builder b = MongoSettings.builder().applyToConnection(c -> c.url("mongodb://localhost:1/ycsb"));
    if (chunks != null) {
      b.applyToPreparation(p -> p.shardKey(ShardKey.of("_id:hashed")).numInitialChunks(chunks));
    }
    return new ClusterPreparation(unused, facts(version), b.build(), router);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"4.4.29", "5.0.31", "6.0.20", "7.0.16", "8.0.4"})
  void aHashedCollectionIsShardedAndPresplitAsTheVersionDoes(String version) throws Exception {
    ScriptedRouter router = ScriptedRouter.router(version, 3);
    Map<String, Object> details = new LinkedHashMap<>();
    preparation(version, router, 6).shardCollection("ycsb.usertable", ShardKey.of("_id:hashed"), true, details);
    assertThat(router.sent).containsExactly("enableSharding", "shardCollection");
    // numInitialChunks is honoured before 7.2 and ignored (not sent) from it: SERVER-74747, SERVER-76405.
    boolean honoured = !ServerVersion.parse(version).atLeast(7, 2);
    assertThat(router.chunkCount()).isEqualTo(honoured ? 6 : 3);
    assertThat((String) details.get("presplit")).startsWith(honoured ? "6 chunks" : "one chunk per shard");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"4.4.29", "5.0.31", "6.0.20", "7.0.16", "8.0.4"})
  void cellRangesAreSplitAndMovedAndABalancerRoundIsWaitedOut(String version) throws Exception {
    ScriptedRouter router = ScriptedRouter.router(version, 3);
    preparation(version, router, null).shardCollection("ycsb.restaurants", ShardKey.of("cell:1"), true,
        new LinkedHashMap<>());
    router.conflicts(3);
    CellKeyPlan plan = CellKeyPlan.of(ShardKey.of("cell:1"), new Properties());
    CellRanges ranges = CellRanges.balanced(CellCounts.of(9, new long[] {10, 20, 30, 40}, new long[] {50, 50, 100, 100}), 3);
    // 3 splits refused with LockBusy and 3 moves with ConflictingOperationInProgress, each waited out.
    Map<String, Object> placed = plan.layOut(new ConflictRetry(router, 1, 5), facts(version), "ycsb.restaurants",
        List.of("rs0", "rs1", "rs2"), ranges, router::chunks);
    boolean moveRange = ServerVersion.parse(version).atLeast(6, 0);
    assertThat(placed).containsEntry("splits", 2).containsEntry("moves", 2).containsEntry("conflictRetries", 6)
        .containsEntry("command", moveRange ? "moveRange" : "moveChunk");
    assertThat(CellKeyPlan.misplaced(router.chunks(), ranges, List.of("rs0", "rs1", "rs2"))).isEmpty();
    assertThat(router.chunks()).extracting(c -> c.getString("shard")).containsExactly("rs0", "rs1", "rs2");
  }

  @Test
  void aBalancerRoundThatDoesNotEndStopsThePreparationSayingSo() throws Exception {
    ScriptedRouter router = ScriptedRouter.router("5.0.31", 2);
    preparation("5.0.31", router, null).shardCollection("ycsb.restaurants", ShardKey.of("cell:1"), true,
        new LinkedHashMap<>());
    router.conflicts(10);
    ConflictRetry retry = new ConflictRetry(router, 1, 3);
    assertThatThrownBy(() -> CellKeyPlan.split(retry, "ycsb.restaurants", List.of(new Document("cell", 5L))))
        .isInstanceOf(MongoStartException.class).hasMessageContaining("4 times with LockBusy");
    assertThat(retry.retries()).isEqualTo(3);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"4.4.0", "4.4.29", "5.0.31", "6.0.20", "7.0.16", "8.0.4"})
  void aThrowawayClustersReplicaSetIsInitiatedBeforeItsFirstWrite(String version) {
    ScriptedRouter node = ScriptedRouter.replSetNode(version, 2);
    assertThatThrownBy(() -> node.run("ycsb", new Document("insert", "usertable")))
        .isInstanceOf(MongoCommandException.class).hasMessageContaining("NotWritablePrimary");
    ClusterAssembly.initiate(node, "rs0", "shard0:27017", false, Duration.ofSeconds(5), 1);
    assertThat(node.run("ycsb", new Document("insert", "usertable")).getInteger("n")).isEqualTo(1);
    // hello is new in 4.4.2: a 4.4.0 node is asked with isMaster.
    assertThat(node.sent).contains(version.equals("4.4.0") ? "isMaster" : "hello");
  }

  @Test
  void shardsAreAddedOnce() {
    ScriptedRouter router = ScriptedRouter.router("8.0.4", 1);
    assertThat(ClusterAssembly.addMissingShards(router, 3, 27017)).containsExactly("rs1", "rs2");
    assertThat(ClusterAssembly.addMissingShards(router, 3, 27017)).isEmpty();
  }

  /** The rulebook itself, for the rules the layout code must never meet (so its refusals are real). */
  @Test
  void theRulebookRefusesWhatEachVersionRefuses() {
    ScriptedRouter old = ScriptedRouter.router("5.0.31", 2);
    assertThatThrownBy(() -> old.run("admin", new Document("shardCollection", "ycsb.t").append("key", new Document("a", 1))))
        .hasMessageContaining("sharding not enabled");
    ScriptedRouter six = ScriptedRouter.router("6.0.20", 2);
    six.run("admin", new Document("shardCollection", "ycsb.t").append("key", new Document("a", 1)));
    assertThatThrownBy(() -> old.run("admin", new Document("moveRange", "ycsb.t")))
        .hasMessageContaining("no such command: 'moveRange'");
    Document upsert = new Document("update", "t").append("updates",
        List.of(new Document("q", new Document("_id", 1)).append("u", new Document()).append("upsert", true)));
    assertThatThrownBy(() -> six.run("ycsb", upsert)).hasMessageContaining("ShardKeyNotFound");
    ScriptedRouter seven = ScriptedRouter.router("7.0.16", 2);
    seven.run("admin", new Document("shardCollection", "ycsb.t").append("key", new Document("a", 1)));
    assertThat(seven.run("ycsb", upsert).getInteger("n")).isEqualTo(1);
    assertThatThrownBy(() -> ScriptedRouter.router("4.4.1", 1).run("admin", new Document("hello", 1)))
        .hasMessageContaining("CommandNotFound");
  }
}
