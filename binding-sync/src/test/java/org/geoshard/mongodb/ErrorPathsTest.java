package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.bson.Document;
import org.geoshard.geo.GeoWorkload;
import org.geoshard.geo.contract.GeoHit;
import org.geoshard.geo.contract.GeoQuery;
import org.geoshard.geo.contract.Restaurant;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.Runner;
import org.geoshard.harness.run.StartFailedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.DBException;
import site.ycsb.Status;

/** Failures come fast, as one sentence that says where and what, with passwords masked. */
class ErrorPathsTest {
  @TempDir
  Path dir;

  private static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private static MongoGeoBinding binding(Properties p) {
    MongoGeoBinding db = new MongoGeoBinding();
    db.setProperties(p);
    return db;
  }

  private static Properties props(String... pairs) {
    Properties p = new Properties();
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return p;
  }

  @Test
  void noServerFailsWithinTheTimeoutSayingWhereItTried() throws Exception {
    int port = closedPort();
    Properties p = props("mongodb.url", "mongodb://bench:hunter2@127.0.0.1:" + port + "/ycsb",
        "mongodb.serverSelectionTimeout", "1");
    long start = System.nanoTime();
    assertThatThrownBy(() -> binding(p).init())
        .isInstanceOf(MongoStartException.class)
        .hasMessage("No MongoDB server answered at mongodb://bench:****@127.0.0.1:" + port + "/ycsb within 1 s"
            + " (mongodb.serverSelectionTimeout) (tried 127.0.0.1:" + port + ": Connection refused); check mongodb.url"
            + " and that the server runs.")
        .satisfies(e -> assertThat(e.getStackTrace()).isEmpty());
    long firstMs = (System.nanoTime() - start) / 1_000_000;
    // The upper bound leaves a busy machine plenty of room and still rules out the driver's 30 s default.
    assertThat(firstMs).as("the timeout, not the driver's 30 s default").isBetween(900L, 15_000L);

    // The other client threads get the same answer at once instead of waiting again.
    long again = System.nanoTime();
    assertThatThrownBy(() -> binding(p).init()).hasMessageContaining("No MongoDB server answered");
    assertThat((System.nanoTime() - again) / 1_000_000).isLessThan(500L);
    assertThat(LeftOpen.standaloneClients().openClients()).isZero();
  }

  @Test
  void aRunThatCannotReachItsServerDoesNotStart() throws Exception {
    int port = closedPort();
    Properties p = props("mongodb.url", "mongodb://127.0.0.1:" + port + "/ycsb", "mongodb.serverSelectionTimeout", "1",
        "workload", GeoWorkload.class.getName(), "geo.cities", TestCities.write(dir).toString(), "geo.scale", "0.01",
        "status.interval", "0", "operationcount", "10", "threadcount", "3", "results.dir", dir.resolve("run").toString());
    Runner runner = new Runner(RunSettings.fromProperties(Phase.RUN, p, "geo"), p,
        new Binding("mongodb-geo", MongoGeoBinding.class), dir);
    long start = System.nanoTime();
    assertThatThrownBy(runner::execute).isInstanceOf(StartFailedException.class)
        .hasMessageContaining("No MongoDB server answered at mongodb://127.0.0.1:" + port + "/ycsb within 1 s");
    assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(10_000L);
  }

  @Test
  void aMalformedPropertyStopsInit() {
    assertThatThrownBy(() -> binding(props("mongodb.shardkey", "Name:sorted")).init())
        .isInstanceOf(DBException.class)
        .hasMessage("Property 'mongodb.shardkey' gives field 'Name' the kind 'sorted'; a shard key field is 'hashed' or "
            + "'1' (ranged).");
  }

  @Test
  void aShardKeyOnAStandaloneServerIsRefusedWhereverItMatters() throws Exception {
    try (InProcessMongo mongo = new InProcessMongo()) {
      String expected = "Property 'mongodb.shardkey' is 'Name:hashed', but " + mongo.url("ycsb")
          + " is a standalone server, not a mongos of a sharded cluster: connect to a mongos or unset mongodb.shardkey.";
      MongoGeoBinding db = binding(mongo.properties("mongodb.shardkey", "Name:hashed"));
      db.init();
      try {
        List<String> steps = new ArrayList<>();
        assertThatThrownBy(() -> db.prepare(org.geoshard.harness.api.Preparable.Stage.BEFORE_LOAD,
            java.util.Set.of(org.geoshard.geo.contract.GeoContract.RESTAURANTS), (name, work) -> {
          steps.add(name);
          try {
            work.run();
          } catch (DBException e) {
            throw e;
          } catch (Exception e) {
            throw new DBException(e);
          }
        })).isInstanceOf(MongoStartException.class).hasMessage(expected);
        assertThat(steps).containsExactly("create collection", "shard collection");
        // A load that skipped preparation: every insert fails at once, the reason logged once.
        assertThat(db.insertRestaurant(new Restaurant(1, "n", "c", "Polish", 2000, 1, 1, "$", false, 1, 2)))
            .isEqualTo(Status.ERROR);
        assertThat(db.insertRestaurant(new Restaurant(2, "n", "c", "Polish", 2000, 1, 1, "$", false, 1, 2)))
            .isEqualTo(Status.ERROR);
      } finally {
        db.cleanup();
      }
    }
  }

  /** The location stream's keys are named as themselves, not as mongodb.shardkey (which was 'null' there). */
  @Test
  void anLklShardKeyOnAStandaloneServerIsRefusedNamingItsOwnProperty() throws Exception {
    try (InProcessMongo mongo = new InProcessMongo()) {
      MongoGeoBinding db = binding(mongo.properties("workload", org.geoshard.lastlocation.LastLocationWorkload.class.getName(),
          "mongodb.ll.lkl.shardkey", "_id:hashed", "ll.users", "10", "ll.cells", "10"));
      db.init();
      try {
        assertThatThrownBy(() -> db.prepare(org.geoshard.harness.api.Preparable.Stage.BEFORE_LOAD,
            java.util.Set.of(org.geoshard.lastlocation.contract.LastLocationContract.HISTORY,
                org.geoshard.lastlocation.contract.LastLocationContract.LAST_KNOWN), new RecordingSteps()))
            .hasMessageEndingWith("Property 'mongodb.ll.lkl.shardkey' is '_id:hashed', but " + mongo.url("ycsb")
                + " is a standalone server, not a mongos of a sharded cluster: connect to a mongos or unset"
                + " mongodb.ll.lkl.shardkey.");
      } finally {
        db.cleanup();
      }
    }
  }

  private static void checkBeforeRun(MongoGeoBinding db, java.util.Set<org.geoshard.harness.api.DataRole> data)
      throws DBException {
    db.init();
    try {
      db.checkBeforeRun(data);
    } finally {
      db.cleanup();
    }
  }

  @Test
  void queriesNeedTheCollectionAndItsIndex() throws Exception {
    try (InProcessMongo mongo = new InProcessMongo(); MongoClient client = MongoClients.create(mongo.url("ycsb"))) {
      Properties run = mongo.properties("dotransactions", "true");
      // The harness asks once before a run's threads start, for the data the workload declares.
      java.util.Set<org.geoshard.harness.api.DataRole> geo = java.util.Set.of(
          org.geoshard.geo.contract.GeoContract.RESTAURANTS);
      assertThatThrownBy(() -> checkBeforeRun(binding(run), geo)).isInstanceOf(MongoStartException.class)
          .hasMessage("Collection ycsb.restaurants does not exist at " + mongo.url("ycsb")
              + ": load it first (bin/ycsb load mongodb-geo -P <workload>).");
      // A workload that reads no restaurants (YCSB's own) is not asked for them, but for its own records (issue 37).
      java.util.Set<org.geoshard.harness.api.DataRole> kv = java.util.Set.of(org.geoshard.harness.api.DataRole.KEY_VALUE);
      assertThatThrownBy(() -> checkBeforeRun(binding(run), kv)).isInstanceOf(MongoStartException.class)
          .hasMessage("Collection ycsb.usertable at " + mongo.url("ycsb") + " holds no records, and this run reads loaded "
              + "data: load it first (bin/ycsb load with the same properties), or check the table, collection or URL.");
      client.getDatabase("ycsb").getCollection("usertable").insertOne(new org.bson.Document("_id", "user1"));
      checkBeforeRun(binding(run), kv);
      client.getDatabase("ycsb").getCollection("restaurants").insertOne(RestaurantDocuments.toDocument(
          new Restaurant(1, "n", "c", "Polish", 2000, 1, 1, "$", false, 1, 2)));
      assertThatThrownBy(() -> checkBeforeRun(binding(run), geo)).isInstanceOf(MongoStartException.class)
          .hasMessage("Collection ycsb.restaurants has no 2dsphere index on 'location', which every near query needs: "
              + "build it with bin/ycsb prepare mongodb-geo --stage after-load -P <workload> (a load with this binding "
              + "builds it by itself).");

      // Without the hint (geoshard's harness), the first query finds out, and every query fails fast.
      MongoGeoBinding db = binding(mongo.properties("workload", GeoWorkload.class.getName()));
      db.init();
      try {
        List<GeoHit> hits = new ArrayList<>(List.of(new GeoHit(null, 1)));
        assertThat(db.near(GeoQuery.firstPage(1, 2, 1000, 10), hits)).isEqualTo(Status.ERROR);
        assertThat(hits).isEmpty();
        assertThat(db.near(GeoQuery.firstPage(1, 2, 1000, 10), hits)).isEqualTo(Status.ERROR);
      } finally {
        db.cleanup();
      }
      // In a load (dotransactions=false) the index is not needed yet.
      MongoGeoBinding loader = binding(mongo.properties("workload", GeoWorkload.class.getName(), "dotransactions", "false"));
      loader.init();
      assertThat(loader.insertRestaurant(new Restaurant(2, "n", "c", "Polish", 2000, 1, 1, "$", false, 1, 2)))
          .isEqualTo(Status.BATCHED_OK);
      loader.cleanup();
      assertThat(client.getDatabase("ycsb").getCollection("restaurants").countDocuments()).isEqualTo(2);
    }
    assertThat(LeftOpen.standaloneClients().openClients()).isZero();
  }

  @Test
  void mongoJavaServerCannotAnswerNearQueriesAndTheBindingSaysSo() throws Exception {
    try (InProcessMongo mongo = new InProcessMongo(); MongoClient client = MongoClients.create(mongo.url("ycsb"))) {
      client.getDatabase("ycsb").getCollection("restaurants").createIndex(new Document("location", "2dsphere"));
      client.getDatabase("ycsb").getCollection("restaurants").insertOne(RestaurantDocuments.toDocument(
          new Restaurant(1, "n", "c", "Polish", 2000, 1, 1, "$", false, 1, 2)));
      MongoGeoBinding db = binding(mongo.properties());
      db.init();
      try {
        List<GeoHit> hits = new ArrayList<>();
        assertThat(db.near(GeoQuery.firstPage(1, 2, 1000, 10), hits)).as("$nearSphere is not implemented there")
            .isEqualTo(Status.ERROR);
      } finally {
        db.cleanup();
      }
    }
  }
}
