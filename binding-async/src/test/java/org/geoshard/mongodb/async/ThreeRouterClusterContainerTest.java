package org.geoshard.mongodb.async;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.MongoCommandException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.IntStream;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.Document;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.output.RunResult;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.Runner;
import org.geoshard.mongodb.PreparedCollections;
import org.geoshard.mongodb.ThrowawayCluster;
import org.geoshard.mongodb.routing.ShardKeyHash;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * A real 3-shard cluster ({@link ThrowawayCluster}, the CI matrix's image, mongo:8.0 by default) with
 * three mongos, one "next to" each shard, as the 3-region layout puts them: {@code usertable} sharded on
 * {@code {_id: "hashed"}} by the binding's own preparation ({@link PreparedCollections}: enableSharding
 * first, which FCV below 6.0 requires; the server's presplit, 2 chunks per shard before 7.2 and one per
 * shard from it, SERVER-74747), a targeted {@code workloada} load and run through the harness, and then
 * each mongos's own {@code serverStatus.opcounters} must show exactly the writes that its shard owns: the
 * documents the shard holds (load) and the updates the shard applied to {@code usertable}
 * ({@code $collStats} latency counters, run). Also: the binding's hash equals the server's
 * {@code $toHashedIndexKey} for every BSON type. Skipped where no Docker engine runs.
 */
@Testcontainers(disabledWithoutDocker = true)
class ThreeRouterClusterContainerTest {
  private static final String IMAGE = org.geoshard.mongodb.MongoImages.image("mongo:8.0");
  private static ThrowawayCluster cluster;
  @TempDir
  Path dir;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = ThrowawayCluster.start(3, IMAGE, false, 3);
    PreparedCollections.sharded(cluster.url("ycsb"), "usertable", "_id:hashed");
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static MongoClient direct(int router) {
    return MongoClients.create(cluster.url(router, "admin"));
  }

  private static Document opcounters(int router) {
    try (MongoClient client = direct(router)) {
      return client.getDatabase("admin").runCommand(new Document("serverStatus", 1)).get("opcounters", Document.class);
    }
  }

  private static long delta(Document after, Document before, String counter) {
    return ((Number) after.get(counter)).longValue() - ((Number) before.get(counter)).longValue();
  }

  /** Per shard: documents of usertable and its write operations ($collStats latency counters). */
  private static Map<String, long[]> usertableByShard() {
    Map<String, long[]> out = new HashMap<>();
    try (MongoClient client = direct(0)) {
      for (Document s : client.getDatabase("ycsb").getCollection("usertable").aggregate(List.of(new Document("$collStats",
          new Document("count", new Document()).append("latencyStats", new Document()))))) {
        Document writes = s.get("latencyStats", Document.class).get("writes", Document.class);
        out.put(s.getString("shard"), new long[] {((Number) s.get("count")).longValue(), ((Number) writes.get("ops")).longValue()});
      }
    }
    return out;
  }

  @Test
  void eachMongosSeesTheRequestsItsShardOwns() throws Exception {
    Properties p = new Properties();
    p.setProperty("mongodb.url", cluster.url(0, "ycsb"));
    p.setProperty("mongodb.routing", "targeted");
    p.setProperty("mongodb.targeted.mongos",
        "rs0=" + cluster.url(0, "ycsb") + ";rs1=" + cluster.url(1, "ycsb") + ";rs2=" + cluster.url(2, "ycsb"));
    p.setProperty("workload", "site.ycsb.workloads.CoreWorkload");
    p.setProperty("recordcount", "600");
    p.setProperty("operationcount", "1500");
    p.setProperty("readproportion", "0.5");
    p.setProperty("updateproportion", "0.5");
    p.setProperty("requestdistribution", "zipfian");
    p.setProperty("threadcount", "4");
    p.setProperty("status.interval", "0");
    List<Document> before = IntStream.range(0, 3).mapToObj(ThreeRouterClusterContainerTest::opcounters).toList();
    p.setProperty("results.dir", dir.resolve("load").toString());
    RunResult load = new Runner(RunSettings.fromProperties(Phase.LOAD, p, "targeted-3region"), p,
        new Binding("mongodb-async", MongoAsyncBinding.class), dir).execute();
    assertThat(load.errors()).isZero();
    List<Document> loaded = IntStream.range(0, 3).mapToObj(ThreeRouterClusterContainerTest::opcounters).toList();
    Map<String, long[]> afterLoad = usertableByShard();
    for (int i = 0; i < 3; i++) {
      assertThat(delta(loaded.get(i), before.get(i), "insert")).as("inserts through mongos%d = documents on rs%d", i, i)
          .isEqualTo(afterLoad.get("rs" + i)[0]);
    }
    p.setProperty("results.dir", dir.resolve("run").toString());
    RunResult run = new Runner(RunSettings.fromProperties(Phase.RUN, p, "targeted-3region"), p,
        new Binding("mongodb-async", MongoAsyncBinding.class), dir).execute();
    assertThat(run.errors()).isZero();
    List<Document> ran = IntStream.range(0, 3).mapToObj(ThreeRouterClusterContainerTest::opcounters).toList();
    Map<String, long[]> afterRun = usertableByShard();
    long updates = 0;
    for (int i = 0; i < 3; i++) {
      long applied = afterRun.get("rs" + i)[1] - afterLoad.get("rs" + i)[1];
      assertThat(delta(ran.get(i), loaded.get(i), "update")).as("updates through mongos%d = updates applied on rs%d", i, i)
          .isEqualTo(applied);
      updates += applied;
    }
    assertThat(updates).isGreaterThan(500);
  }

  @Test
  void theHashIsTheServersForEveryType() {
    org.junit.jupiter.api.Assumptions.assumeTrue(org.geoshard.mongodb.MongoImages.version(IMAGE).atLeast(7, 0),
        "$toHashedIndexKey is documented from MongoDB 7.0");
    try (MongoClient client = direct(0)) {
      var values = client.getDatabase("hashcheck").getCollection("values", BsonDocument.class);
      values.drop();
      List<BsonValue> all = new ArrayList<>(org.geoshard.mongodb.routing.ShardKeyHashTestAccess.everyType());
      Map<Integer, BsonValue> byIndex = new LinkedHashMap<>();
      for (int i = 0; i < all.size(); i++) {
        byIndex.put(i, all.get(i));
        values.insertOne(new BsonDocument("_id", new org.bson.BsonInt32(i)).append("v", all.get(i)));
      }
      for (BsonDocument d : values.aggregate(List.of(new BsonDocument("$project",
          new BsonDocument("h", new BsonDocument("$toHashedIndexKey", new org.bson.BsonString("$v"))))))) {
        BsonValue v = byIndex.get(d.getInt32("_id").getValue());
        assertThat(d.getInt64("h").getValue()).as("%s", v).isEqualTo(ShardKeyHash.hash(v));
      }
    } catch (MongoCommandException e) {
      throw new AssertionError("the server refused $toHashedIndexKey: " + e.getErrorMessage(), e);
    }
  }
}
