package org.geoshard.mongodb.async;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.MongoCommandException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.bson.BsonDocument;
import org.bson.BsonValue;
import org.bson.Document;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.output.RunResult;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.Runner;
import org.geoshard.mongodb.routing.ShardKeyHash;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.lifecycle.Startables;
import org.testcontainers.utility.DockerImageName;

/**
 * A real 3-shard cluster (mongo:8.0) with three mongos, one "next to" each shard, as the 3-region
 * layout puts them: {@code usertable} sharded on {@code {_id: "hashed"}} (one chunk per shard), a
 * targeted {@code workloada} load and run through the harness, and then each mongos's own
 * {@code serverStatus.opcounters} must show exactly the writes that its shard owns: the documents the
 * shard holds (load) and the updates the shard applied to {@code usertable} ({@code $collStats}
 * latency counters, run). Also: the binding's hash equals the server's {@code $toHashedIndexKey} for
 * every BSON type. Skipped where no Docker engine runs.
 */
@Testcontainers(disabledWithoutDocker = true)
class ThreeRouterClusterContainerTest {
  private static final String IMAGE = org.geoshard.mongodb.MongoImages.image("mongo:8.0");
  private static final int PORT = 27017;
  private static final Duration STARTUP = Duration.ofMinutes(3);
  private static Network network;
  private static final List<GenericContainer<?>> containers = new ArrayList<>();
  private static final List<GenericContainer<?>> shards = new ArrayList<>();
  private static final List<GenericContainer<?>> routers = new ArrayList<>();
  @TempDir
  Path dir;

  private static GenericContainer<?> node(String alias, String... command) {
    List<String> args = new ArrayList<>(List.of(command));
    args.addAll(List.of("--bind_ip_all", "--port", Integer.toString(PORT)));
    if (!command[0].equals("mongos")) {
      args.addAll(List.of("--wiredTigerCacheSizeGB", "0.25"));
    }
    GenericContainer<?> c = new GenericContainer<>(DockerImageName.parse(IMAGE)).withNetwork(network)
        .withNetworkAliases(alias).withExposedPorts(PORT).withCommand(args.toArray(String[]::new))
        .waitingFor(Wait.forLogMessage("(?is).*waiting for connections.*", 1).withStartupTimeout(STARTUP));
    containers.add(c);
    return c;
  }

  private static String url(GenericContainer<?> c) {
    return "mongodb://" + c.getHost() + ":" + c.getMappedPort(PORT) + "/ycsb";
  }

  private static MongoClient direct(GenericContainer<?> c) {
    return MongoClients.create("mongodb://" + c.getHost() + ":" + c.getMappedPort(PORT) + "/?directConnection=true");
  }

  private static void initiate(GenericContainer<?> c, String name, String alias, boolean configServer) throws Exception {
    try (MongoClient client = direct(c)) {
      Document config = new Document("_id", name).append("members", List.of(new Document("_id", 0).append("host", alias + ":" + PORT)));
      if (configServer) {
        config.append("configsvr", true);
      }
      client.getDatabase("admin").runCommand(new Document("replSetInitiate", config));
      long deadline = System.nanoTime() + STARTUP.toNanos();
      while (!Boolean.TRUE.equals(client.getDatabase("admin").runCommand(new Document("hello", 1)).getBoolean("isWritablePrimary"))) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(name + " has no primary");
        }
        TimeUnit.MILLISECONDS.sleep(250);
      }
    }
  }

  @BeforeAll
  static void startCluster() throws Exception {
    network = Network.newNetwork();
    GenericContainer<?> cfg = node("cfg", "mongod", "--configsvr", "--replSet", "cfg");
    for (int i = 0; i < 3; i++) {
      shards.add(node("shard" + i, "mongod", "--shardsvr", "--replSet", "rs" + i));
    }
    Startables.deepStart(containers).join();
    initiate(cfg, "cfg", "cfg", true);
    for (int i = 0; i < 3; i++) {
      initiate(shards.get(i), "rs" + i, "shard" + i, false);
    }
    for (int i = 0; i < 3; i++) {
      routers.add(node("mongos" + i, "mongos", "--configdb", "cfg/cfg:" + PORT));
    }
    Startables.deepStart(routers).join();
    try (MongoClient client = direct(routers.get(0))) {
      for (int i = 0; i < 3; i++) {
        client.getDatabase("admin").runCommand(new Document("addShard", "rs" + i + "/shard" + i + ":" + PORT).append("name", "rs" + i));
      }
      client.getDatabase("admin").runCommand(new Document("shardCollection", "ycsb.usertable")
          .append("key", new Document("_id", "hashed")));
    }
  }

  @AfterAll
  static void stopCluster() {
    for (int i = containers.size() - 1; i >= 0; i--) {
      containers.get(i).stop();
    }
    if (network != null) {
      network.close();
    }
  }

  private static Document opcounters(GenericContainer<?> c) {
    try (MongoClient client = direct(c)) {
      return client.getDatabase("admin").runCommand(new Document("serverStatus", 1)).get("opcounters", Document.class);
    }
  }

  private static long delta(Document after, Document before, String counter) {
    return ((Number) after.get(counter)).longValue() - ((Number) before.get(counter)).longValue();
  }

  /** Per shard: documents of usertable and its write operations ($collStats latency counters). */
  private static Map<String, long[]> usertableByShard() {
    Map<String, long[]> out = new HashMap<>();
    try (MongoClient client = direct(routers.get(0))) {
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
    p.setProperty("mongodb.url", url(routers.get(0)));
    p.setProperty("mongodb.routing", "targeted");
    p.setProperty("mongodb.targeted.mongos",
        "rs0=" + url(routers.get(0)) + ";rs1=" + url(routers.get(1)) + ";rs2=" + url(routers.get(2)));
    p.setProperty("workload", "site.ycsb.workloads.CoreWorkload");
    p.setProperty("recordcount", "600");
    p.setProperty("operationcount", "1500");
    p.setProperty("readproportion", "0.5");
    p.setProperty("updateproportion", "0.5");
    p.setProperty("requestdistribution", "zipfian");
    p.setProperty("threadcount", "4");
    p.setProperty("status.interval", "0");
    List<Document> before = routers.stream().map(ThreeRouterClusterContainerTest::opcounters).toList();
    p.setProperty("results.dir", dir.resolve("load").toString());
    RunResult load = new Runner(RunSettings.fromProperties(Phase.LOAD, p, "targeted-3region"), p,
        new Binding("mongodb-async", MongoAsyncBinding.class), dir).execute();
    assertThat(load.errors()).isZero();
    List<Document> loaded = routers.stream().map(ThreeRouterClusterContainerTest::opcounters).toList();
    Map<String, long[]> afterLoad = usertableByShard();
    for (int i = 0; i < 3; i++) {
      assertThat(delta(loaded.get(i), before.get(i), "insert")).as("inserts through mongos%d = documents on rs%d", i, i)
          .isEqualTo(afterLoad.get("rs" + i)[0]);
    }
    p.setProperty("results.dir", dir.resolve("run").toString());
    RunResult run = new Runner(RunSettings.fromProperties(Phase.RUN, p, "targeted-3region"), p,
        new Binding("mongodb-async", MongoAsyncBinding.class), dir).execute();
    assertThat(run.errors()).isZero();
    List<Document> ran = routers.stream().map(ThreeRouterClusterContainerTest::opcounters).toList();
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
    try (MongoClient client = direct(routers.get(0))) {
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
