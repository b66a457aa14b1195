package org.geoshard.mongodb.async;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.CopyOnWriteArrayList;
import org.bson.BsonDocument;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.BsonTimestamp;
import org.bson.Document;
import org.geoshard.mongodb.Op;
import org.geoshard.mongodb.InProcessMongo;
import org.geoshard.mongodb.StallingProxy;
import org.geoshard.geo.contract.GeoHit;
import org.geoshard.geo.contract.GeoQuery;
import org.geoshard.harness.api.StandaloneRun;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.output.RunResult;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.Runner;
import org.geoshard.lastlocation.contract.LocationEvent;
import org.geoshard.mongodb.routing.Fixtures;
import org.geoshard.mongodb.routing.ShardKeyHash;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.ByteIterator;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/**
 * Four mongo-java-server instances on loopback ports stand in for a default router and the routers
 * next to three shards; the default one holds MongoDB 8.0's {@code config.*} documents of a
 * {@code usertable} sharded on {@code {_id: "hashed"}} (one chunk per shard). They do not shard or
 * forward anything, so a document is found only where it was sent: every keyed request must land on
 * the server of the shard that owns its key (computed here from the hash and the chunk bounds), every
 * keyless one on the default, and a moved chunk must be followed.
 */
class TargetedRoutingTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long LOW = -3074457345618258602L;
  private static final long HIGH = 3074457345618258602L;
  private static final String NS = "ycsb.usertable";
  private static final org.bson.types.ObjectId CLUSTER = new org.bson.types.ObjectId("65a000000000000000000001");
  @TempDir
  Path dir;
  private InProcessMongo router;
  private final Map<String, InProcessMongo> shards = new LinkedHashMap<>();
  private final Map<String, MongoClient> direct = new HashMap<>();
  private final List<String[]> commands = new CopyOnWriteArrayList<>();
  private final CommandListener recorder = new CommandListener() {
    @Override
    public void commandStarted(CommandStartedEvent event) {
      org.bson.BsonValue target = event.getCommand().isEmpty() ? null : event.getCommand().get(event.getCommandName());
      commands.add(new String[] {event.getCommandName(), event.getDatabaseName(),
          Integer.toString(event.getConnectionDescription().getServerAddress().getPort()),
          target != null && target.isString() ? target.asString().getValue() : ""});
    }
  };

  @BeforeEach
  void start() {
    router = new InProcessMongo();
    for (String shard : List.of("shard01", "shard02", "shard03")) {
      shards.put(shard, InProcessMongo.router());
    }
    Fixtures f = Fixtures.load("config-8.0");
    MongoClient client = client(router);
    client.getDatabase("config").getCollection("collections", BsonDocument.class).insertMany(f.collections());
    client.getDatabase("config").getCollection("chunks", BsonDocument.class).insertMany(f.chunks());
    client.getDatabase("config").getCollection("shards", BsonDocument.class).insertMany(f.shards());
    // Every router reads the one cluster's config.version.
    for (InProcessMongo server : allServers()) {
      client(server).getDatabase("config").getCollection("version").insertOne(new Document("_id", 1).append("clusterId", CLUSTER));
    }
  }

  private List<InProcessMongo> allServers() {
    List<InProcessMongo> all = new ArrayList<>(shards.values());
    all.add(router);
    return all;
  }

  @AfterEach
  void stop() {
    direct.values().forEach(MongoClient::close);
    shards.values().forEach(InProcessMongo::close);
    router.close();
    assertThat(standaloneRouters().openRouters()).as("the last instance closed the shared router").isZero();
  }

  private MongoClient client(InProcessMongo server) {
    return direct.computeIfAbsent(server.url(""), u -> MongoClients.create(server.url("ycsb")));
  }

  /** The routing counters a phase's end logs (the last phase's, once it ended). */
  private static final class PhaseEnd implements AutoCloseable {
    private final ch.qos.logback.classic.Logger logger =
        (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(Routers.class);
    private final ch.qos.logback.classic.Level level = logger.getLevel();
    private final ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> lines =
        new ch.qos.logback.core.read.ListAppender<>();

    PhaseEnd() {
      lines.start();
      logger.addAppender(lines);
      logger.setLevel(ch.qos.logback.classic.Level.DEBUG);
    }

    @SuppressWarnings("unchecked")
    Map<String, Map<String, Object>> endpoints() {
      List<ch.qos.logback.classic.spi.ILoggingEvent> counters = lines.list.stream()
          .filter(e -> e.getMessage().startsWith("The routing counters")).toList();
      assertThat(counters).as("the phases' ends").isNotEmpty();
      Object[] arguments = counters.get(counters.size() - 1).getArgumentArray();
      return (Map<String, Map<String, Object>>) ((Map<String, Object>) arguments[1]).get("endpoints");
    }

    @Override
    public void close() {
      logger.detachAppender(lines);
      logger.setLevel(level);
    }
  }

  /** The routers of binding instances that joined no phase (made by the tests themselves). */
  private static Routers standaloneRouters() {
    return Routers.in(StandaloneRun.context(new Properties()));
  }

  /** Which shard owns a YCSB key in the fixture (8.0: shard03 below LOW, shard01 to HIGH, shard02 above). */
  static String owner(String key) {
    long h = ShardKeyHash.hash(new BsonString(key));
    return h < LOW ? "shard03" : h < HIGH ? "shard01" : "shard02";
  }

  private Properties properties(String... pairs) {
    Properties p = new Properties();
    p.setProperty("mongodb.url", router.url("ycsb"));
    p.setProperty("mongodb.serverSelectionTimeout", "2");
    p.setProperty("mongodb.routing", "targeted");
    p.setProperty("mongodb.targeted.refresh", "1");
    shards.forEach((name, server) -> p.setProperty("mongodb.targeted.mongos." + name, server.url("ycsb")));
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return p;
  }

  /**
   * The stand-ins forward nothing, so through the default router (mongodb.url, where the run's checks look)
   * the loaded usertable looks empty, which a run refuses (issue 37); one document outside the key range
   * there stands for the data a real router would see.
   */
  private void seenThroughTheDefaultRouter() {
    try (com.mongodb.client.MongoClient client = com.mongodb.client.MongoClients.create(router.url("ycsb"))) {
      client.getDatabase("ycsb").getCollection("usertable").insertOne(new org.bson.Document("_id", "loaded elsewhere"));
    }
  }

  private MongoAsyncBinding binding(Properties p) throws Exception {
    MongoAsyncBinding b = new MongoAsyncBinding(List.of(recorder));
    b.setProperties(p);
    b.init();
    return b;
  }

  private Set<String> idsAt(InProcessMongo server, String collection) {
    Set<String> ids = new HashSet<>();
    for (Document d : client(server).getDatabase("ycsb").getCollection(collection).find()) {
      ids.add(String.valueOf(d.get("_id")));
    }
    return ids;
  }

  private static Map<String, ByteIterator> fields(String value) {
    Map<String, ByteIterator> values = new HashMap<>();
    values.put("field0", new StringByteIterator(value));
    return values;
  }

  @Test
  void everyKeyedOperationArrivesAtTheOwningShardsRouter() throws Exception {
    MongoAsyncBinding b = binding(properties());
    Map<String, Set<String>> expected = new HashMap<>();
    for (int i = 0; i < 300; i++) {
      String key = "user" + i;
      assertThat(b.insert("usertable", key, fields("v" + i))).isEqualTo(Status.OK);
      expected.computeIfAbsent(owner(key), s -> new HashSet<>()).add(key);
    }
    assertThat(expected.keySet()).containsExactlyInAnyOrder("shard01", "shard02", "shard03");
    for (Map.Entry<String, InProcessMongo> shard : shards.entrySet()) {
      assertThat(idsAt(shard.getValue(), "usertable")).as(shard.getKey()).isEqualTo(expected.get(shard.getKey()));
    }
    assertThat(idsAt(router, "usertable")).as("nothing keyed at the default router").isEmpty();
    // Each server holds only its own keys, so a misrouted read, update or delete would find nothing.
    for (int i = 0; i < 300; i++) {
      String key = "user" + i;
      Map<String, ByteIterator> read = new HashMap<>();
      assertThat(b.read("usertable", key, null, read)).as(key).isEqualTo(Status.OK);
      assertThat(read.get("field0").toString()).isEqualTo("v" + i);
      assertThat(b.update("usertable", key, fields("w" + i))).as(key).isEqualTo(Status.OK);
    }
    for (int i = 0; i < 300; i += 3) {
      assertThat(b.delete("usertable", "user" + i)).isEqualTo(Status.OK);
    }
    RoutingStats stats = standaloneRouters().statsOf(b.settings());
    long owned01 = expected.get("shard01").size();
    EndpointCounters c01 = stats.endpoint("shard01");
    assertThat(c01.requests(Op.INSERT)).isEqualTo(owned01);
    assertThat(c01.requests(Op.READ)).isEqualTo(owned01);
    assertThat(c01.requests(Op.UPDATE)).isEqualTo(owned01);
    assertThat(stats.endpoint(Router.DEFAULT).requests()).isZero();
    assertThat(stats.fallbacks(RoutingStats.Fallback.NO_SHARD_KEY)).isZero();
    // The driver agrees: every insert, find and update of usertable went to the three shard routers' ports.
    Set<String> shardPorts = new HashSet<>();
    shards.values().forEach(s -> shardPorts.add(Integer.toString(s.port())));
    List<String[]> data = commands.stream().filter(c -> c[3].equals("usertable")).toList();
    assertThat(data).hasSize(300 * 3 + 100);
    assertThat(data).allMatch(c -> shardPorts.contains(c[2]));
    b.cleanup();
  }

  @Test
  void aStalledRouterFailsOnlyTheRequestsRoutedThereEachAtItsDeadline() throws Exception {
    try (StallingProxy proxy = new StallingProxy(shards.get("shard02").port())) {
      MongoAsyncBinding b = binding(properties("mongodb.targeted.mongos.shard02", proxy.url("ycsb"), "mongodb.timeout.ms",
          "2000"));
      for (int i = 0; i < 30; i++) {
        assertThat(b.insert("usertable", "user" + i, fields("v" + i))).isEqualTo(Status.OK);
      }
      proxy.stall();
      Map<String, Integer> failedAt = new HashMap<>();
      for (int i = 0; i < 30; i++) {
        String key = "user" + i;
        long start = System.nanoTime();
        Status status = b.read("usertable", key, null, new HashMap<>());
        long millis = (System.nanoTime() - start) / 1_000_000;
        if (owner(key).equals("shard02")) {
          assertThat(status).as(key).isEqualTo(Status.ERROR);
          // the driver's deadline (2 s), before the wait's own backstop
          assertThat(millis).as(key).isLessThan(2000 + Blocking.MARGIN_MS);
          failedAt.merge(owner(key), 1, Integer::sum);
        } else {
          assertThat(status).as(key).isEqualTo(Status.OK);
        }
      }
      assertThat(failedAt.get("shard02")).isPositive();
      RoutingStats stats = standaloneRouters().statsOf(b.settings());
      assertThat(stats.endpoint("shard02").failures()).isEqualTo((long) failedAt.get("shard02"));
      assertThat(stats.endpoint("shard01").failures()).isZero();
      assertThat(stats.endpoint("shard03").failures()).isZero();
      b.cleanup();
    }
  }

  private static long failed(Map<String, Map<String, Object>> endpoints, String name) {
    return ((Number) endpoints.get(name).get("failed")).longValue();
  }

  @Test
  void aRunWithOneOfSeveralRoutersStalledEndsAtItsTimeAndCountsTheStalledRequests() throws Exception {
    try (StallingProxy proxy = new StallingProxy(shards.get("shard02").port()); PhaseEnd phaseEnd = new PhaseEnd()) {
      Properties p = properties("mongodb.targeted.mongos.shard02", proxy.url("ycsb"), "mongodb.timeout.ms", "2000");
      p.setProperty("workload", "site.ycsb.workloads.CoreWorkload");
      p.setProperty("recordcount", "100");
      p.setProperty("readproportion", "1");
      p.setProperty("updateproportion", "0");
      p.setProperty("threadcount", "3");
      p.setProperty("status.interval", "0");
      p.setProperty("results.dir", dir.resolve("load").toString());
      assertThat(new Runner(RunSettings.fromProperties(Phase.LOAD, p, "stall"), p,
          new Binding("mongodb-async", MongoAsyncBinding.class), dir).execute().errors()).isZero();
      seenThroughTheDefaultRouter();
      p.setProperty("results.dir", dir.resolve("run").toString());
      p.setProperty("operationcount", "0");
      p.setProperty("maxexecutiontime", "4");
      // The stall comes 1.5 s into the measured run, after every router opened (however slow the machine is).
      java.util.concurrent.CountDownLatch running = new java.util.concurrent.CountDownLatch(1);
      Thread staller = new Thread(() -> {
        try {
          running.await();
          Thread.sleep(1500);
        } catch (InterruptedException e) {
          return;
        }
        proxy.stall();
      });
      staller.start();
      long start = System.nanoTime();
      RunResult run = new Runner(RunSettings.fromProperties(Phase.RUN, p, "stall"), p,
          new Binding("mongodb-async", MongoAsyncBinding.class), dir)
          .addStageListener(new org.geoshard.harness.observe.StageListener() {
            @Override
            public void started(org.geoshard.harness.observe.Stage stage) {
              running.countDown();
            }
          }).execute();
      staller.interrupt();
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(4 + 30));
      long errors = run.perOperation().get("READ").errors();
      assertThat(errors).as("stalled reads").isGreaterThanOrEqualTo(3);
      assertThat(run.perOperation().get("READ").count()).as("the other routers went on answering").isGreaterThan(errors);
      assertThat(run.hasFailures()).as("the command exits 1").isTrue();
      // The run phase's routing counters, as its end left them (its topology cannot be read: a router stalls).
      Map<String, Map<String, Object>> endpoints = phaseEnd.endpoints();
      assertThat(failed(endpoints, "shard02")).isGreaterThanOrEqualTo(errors);
      assertThat(failed(endpoints, "shard01") + failed(endpoints, "shard03")).isZero();
    }
  }

  @Test
  void aShardUrlThatReachesAMongodIsRefused() throws Exception {
    try (InProcessMongo mongod = new InProcessMongo()) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> binding(properties("mongodb.targeted.mongos.shard02",
              mongod.url("ycsb"))))
          .hasMessageContaining("Targeted routing cannot start: the router of shard 'shard02'")
          .hasMessageContaining("is not a mongos but a mongod");
    }
  }

  @Test
  void routersOfAnotherClusterAreRefused() throws Exception {
    client(shards.get("shard03")).getDatabase("config").getCollection("version")
        .updateOne(Filters.eq("_id", 1), Updates.set("clusterId", new org.bson.types.ObjectId("65a000000000000000000002")));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> binding(properties()))
        .hasMessageContaining("the router of shard 'shard03'")
        .hasMessageContaining("belongs to cluster 65a000000000000000000002, not to cluster 65a000000000000000000001");
  }

  @Test
  void lastKnownLocationOnItsOwnClusterGoesThereWhileHistoryStaysWithTheRouters() throws Exception {
    // The pilot's topology (issue 18): LastKnownLocation on another cluster, in this binding too.
    try (InProcessMongo lkl = new InProcessMongo(); MongoClient lklClient = MongoClients.create(lkl.url("ycsb"))) {
      MongoAsyncBinding b = binding(properties("mongodb.ll.lkl.url", lkl.url("ycsb"), "ll.history.batchsize", "1"));
      try {
        LocationEvent event = new LocationEvent("350000000000006", 7, 1000, 50.06, 19.94);
        assertThat(b.upsertLastLocation(event)).isEqualTo(Status.OK);
        assertThat(b.appendHistory(event)).isEqualTo(Status.OK);
        List<LocationEvent> out = new ArrayList<>();
        assertThat(b.readLastLocation("350000000000006", out)).isEqualTo(Status.OK);
        assertThat(out).containsExactly(event);
      } finally {
        b.cleanup();
      }
      assertThat(lklClient.getDatabase("ycsb").getCollection("lastknownlocation").countDocuments()).isEqualTo(1);
      assertThat(client(router).getDatabase("ycsb").getCollection("lastknownlocation").countDocuments()).isZero();
      assertThat(client(router).getDatabase("ycsb").getCollection("history").countDocuments()).isEqualTo(1);
    }
  }

  @Test
  void keylessOperationsGoToTheDefaultRouter() throws Exception {
    MongoCollection<Document> atDefault = client(router).getDatabase("ycsb").getCollection("usertable");
    for (int i = 0; i < 5; i++) {
      atDefault.insertOne(new Document("_id", "user" + i).append("field0", "at default"));
    }
    MongoAsyncBinding b = binding(properties());
    Vector<HashMap<String, ByteIterator>> rows = new Vector<>();
    assertThat(b.scan("usertable", "user0", 10, null, rows)).isEqualTo(Status.OK);
    assertThat(rows).hasSize(5);  // only the default router's documents: the scan went there
    List<GeoHit> hits = new ArrayList<>();
    commands.clear();
    client(router).getDatabase("ycsb").getCollection("restaurants").createIndex(new Document("location", "2dsphere"));
    b.near(GeoQuery.firstPage(2.35, 48.85, 1000, 10), hits);  // the answer does not matter: where it was asked does
    String defaultPort = Integer.toString(router.port());
    assertThat(commands.stream().filter(c -> c[0].equals("find") && c[3].equals("restaurants")))
        .isNotEmpty().allMatch(c -> c[2].equals(defaultPort));
    RoutingStats stats = standaloneRouters().statsOf(b.settings());
    assertThat(stats.endpoint(Router.DEFAULT).requests(Op.SCAN)).isEqualTo(1);
    assertThat(stats.endpoint(Router.DEFAULT).requests(Op.GEO_NEAR)).isEqualTo(1);
    assertThat(stats.fallbacks(RoutingStats.Fallback.NO_SHARD_KEY)).isEqualTo(2);
    // An unsharded collection: everything through the default router.
    b.cleanup();
  }

  @Test
  void aMovedChunkIsFollowedAfterTheNextPoll() throws Exception {
    MongoAsyncBinding b = binding(properties());
    Router.Table table = b.router().table(NS);
    BsonTimestamp before = table.current.version();
    // The balancer moves the middle chunk (shard01) to shard03: new owner, new lastmod.
    MongoCollection<BsonDocument> chunks = client(router).getDatabase("config").getCollection("chunks", BsonDocument.class);
    BsonDocument uuid = new BsonDocument("uuid", Fixtures.load("config-8.0").collection().get("uuid"));
    BsonDocument middle = chunks.find(uuid.clone().append("min._id", new BsonInt64(LOW))).first();
    assertThat(middle).isNotNull();
    chunks.updateOne(Filters.eq("_id", middle.get("_id")), Updates.combine(Updates.set("shard", "shard03"),
        Updates.set("lastmod", new BsonTimestamp(2, 0))));
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (table.current.version().equals(before) && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(table.current.version()).isEqualTo(new BsonTimestamp(2, 0));
    List<String> middleKeys = new ArrayList<>();
    for (int i = 0; middleKeys.size() < 20; i++) {
      if (owner("moved" + i).equals("shard01")) {
        middleKeys.add("moved" + i);
      }
    }
    for (String key : middleKeys) {
      assertThat(b.insert("usertable", key, fields(key))).isEqualTo(Status.OK);
    }
    assertThat(idsAt(shards.get("shard03"), "usertable")).containsAll(middleKeys);
    assertThat(idsAt(shards.get("shard01"), "usertable")).doesNotContainAnyElementsOf(middleKeys);
    Map<String, Object> topology = b.router().describe();
    assertThat(topology.toString()).contains("versionChanged=1");
    // On demand: the same table read again at once (as after a preparation).
    long refreshes = b.router().stats.refreshes();
    b.router().refreshAll("onDemand");
    assertThat(b.router().stats.refreshes()).isGreaterThan(refreshes);
    b.cleanup();
  }

  @Test
  void mongosRoutingSendsEverythingToTheDefaultRouter() throws Exception {
    MongoAsyncBinding b = binding(properties("mongodb.routing", "mongos"));
    for (int i = 0; i < 30; i++) {
      assertThat(b.insert("usertable", "user" + i, fields("x"))).isEqualTo(Status.OK);
    }
    assertThat(idsAt(router, "usertable")).hasSize(30);
    shards.values().forEach(s -> assertThat(idsAt(s, "usertable")).isEmpty());
    b.cleanup();
  }

  @Test
  void batchedInsertsAreSplitByOwner() throws Exception {
    MongoAsyncBinding b = binding(properties("batchsize", "50"));
    Map<String, Set<String>> expected = new HashMap<>();
    for (int i = 0; i < 120; i++) {
      Status s = b.insert("usertable", "batch" + i, fields("x"));
      assertThat(s).isIn(Status.OK, Status.BATCHED_OK);
      expected.computeIfAbsent(owner("batch" + i), k -> new HashSet<>()).add("batch" + i);
    }
    b.cleanup();  // writes the last 20
    for (Map.Entry<String, InProcessMongo> shard : shards.entrySet()) {
      assertThat(idsAt(shard.getValue(), "usertable")).isEqualTo(expected.get(shard.getKey()));
    }
  }

  @Test
  void lastLocationRequestsGoByUser() throws Exception {
    // LastKnownLocation sharded on {_id: "hashed"} like usertable: add its catalog entry and chunks.
    MongoCollection<BsonDocument> config = client(router).getDatabase("config").getCollection("collections", BsonDocument.class);
    MongoCollection<BsonDocument> chunks = client(router).getDatabase("config").getCollection("chunks", BsonDocument.class);
    BsonDocument coll = config.find(Filters.eq("_id", NS)).first();
    coll.put("_id", new BsonString("ycsb.lastknownlocation"));
    coll.put("uuid", new org.bson.BsonBinary(java.util.UUID.randomUUID()));
    config.insertOne(coll);
    for (BsonDocument chunk : Fixtures.load("config-8.0").source().chunks(NS, Fixtures.load("config-8.0").collection())) {
      BsonDocument copy = chunk.clone();
      copy.put("_id", new org.bson.BsonObjectId());
      copy.put("uuid", coll.get("uuid"));
      chunks.insertOne(copy);
    }
    MongoAsyncBinding b = binding(properties());
    for (int i = 0; i < 60; i++) {
      String user = String.format("35%013d", i);
      assertThat(b.upsertLastLocation(new LocationEvent(user, 7, 1_000L + i, 48.8, 2.3))).isEqualTo(Status.OK);
      List<LocationEvent> out = new ArrayList<>();
      assertThat(b.readLastLocation(user, out)).isEqualTo(Status.OK);
      assertThat(out).hasSize(1);
      assertThat(idsAt(shards.get(owner(user)), "lastknownlocation")).contains(user);
    }
    b.cleanup();
  }

  @Test
  void workloadaRunsThroughTheHarnessAndRecordsTheRouting() throws Exception {
    Properties p = properties();
    p.setProperty("workload", "site.ycsb.workloads.CoreWorkload");
    p.setProperty("recordcount", "200");
    p.setProperty("operationcount", "600");
    p.setProperty("readproportion", "0.5");
    p.setProperty("updateproportion", "0.5");
    p.setProperty("requestdistribution", "zipfian");
    p.setProperty("readallfields", "true");
    p.setProperty("threadcount", "3");
    p.setProperty("status.interval", "0");
    p.setProperty("results.dir", dir.resolve("load").toString());
    RunResult load = new Runner(RunSettings.fromProperties(Phase.LOAD, p, "workloada"), p,
        new Binding("mongodb-async", MongoAsyncBinding.class), dir).execute();
    assertThat(load.errors()).isZero();
    int total = 0;
    for (Map.Entry<String, InProcessMongo> shard : shards.entrySet()) {
      Set<String> ids = idsAt(shard.getValue(), "usertable");
      assertThat(ids).allMatch(id -> owner(id).equals(shard.getKey()));
      total += ids.size();
    }
    assertThat(total).isEqualTo(200);
    seenThroughTheDefaultRouter();
    p.setProperty("results.dir", dir.resolve("run").toString());
    RunResult run = new Runner(RunSettings.fromProperties(Phase.RUN, p, "workloada"), p,
        new Binding("mongodb-async", MongoAsyncBinding.class), dir).execute();
    assertThat(run.errors()).isZero();
    assertThat(run.operations()).isEqualTo(600);
    JsonNode routing = JSON.readTree(run.folder().resolve("run.json").toFile()).path("topology").path("routing");
    assertThat(routing.path("mode").asText()).isEqualTo("targeted");
    long sent = 0;
    for (String shard : shards.keySet()) {
      JsonNode ep = routing.path("endpoints").path(shard);
      sent += ep.path("byOperation").path("READ").asLong() + ep.path("byOperation").path("UPDATE").asLong();
    }
    assertThat(sent).isEqualTo(600);
    assertThat(routing.path("endpoints").path("default").path("ops").asLong()).isZero();
    assertThat(routing.path("tables").path(NS).path("chunksPerShard").toString())
        .isEqualTo("{\"shard01\":1,\"shard02\":1,\"shard03\":1}");
  }
}
