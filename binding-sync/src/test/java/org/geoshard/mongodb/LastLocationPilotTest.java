package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.bson.Document;
import org.geoshard.harness.api.Preparable;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.output.RunResult;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.Runner;
import org.geoshard.lastlocation.LastLocationWorkload;
import org.geoshard.lastlocation.SplitScenario;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * The pilot as it was run (issue 18): insert-only tables, LastKnownLocation on a cluster of its own,
 * and its 2dsphere index only when near queries are in the mix. Against mongo-java-server in process.
 */
class LastLocationPilotTest {
  @TempDir
  Path dir;

  private static final String[] WORKLOAD = {"workload", LastLocationWorkload.class.getName(), "ll.users", "100",
      "ll.cells", "50", "ll.writers", "2", "ll.history.batchsize", "5", "ll.history.peruser", "2"};

  private static MongoGeoBinding binding(Properties p) throws DBException {
    MongoGeoBinding binding = new MongoGeoBinding();
    binding.setProperties(p);
    binding.init();
    return binding;
  }

  private static Properties with(Properties base, String... pairs) {
    Properties p = new Properties();
    p.putAll(base);
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return p;
  }

  private static Map<String, Map<String, Object>> prepare(Properties p) throws DBException {
    MongoGeoBinding db = binding(p);
    try {
      RecordingSteps steps = new RecordingSteps();
      db.prepare(Preparable.Stage.BEFORE_LOAD,
          java.util.Set.of(org.geoshard.lastlocation.contract.LastLocationContract.HISTORY,
              org.geoshard.lastlocation.contract.LastLocationContract.LAST_KNOWN), steps);
      return steps.steps;
    } finally {
      db.cleanup();
    }
  }

  private static List<String> lklIndexKeys(MongoDatabase db) {
    List<String> keys = new ArrayList<>();
    for (Document index : db.getCollection("lastknownlocation").listIndexes()) {
      keys.add(index.get("key", Document.class).toJson());
    }
    return keys;
  }

  @Test
  void theLklSpatialIndexIsBuiltOnlyWhenNearQueriesAreInTheMix() throws Exception {
    try (InProcessMongo mongo = new InProcessMongo(); MongoClient client = MongoClients.create(mongo.url("ycsb"))) {
      Properties base = mongo.properties(WORKLOAD);
      Map<String, Map<String, Object>> without = prepare(with(base, "mongodb.drop", "true"));
      assertThat(without.get("LastKnownLocation lastknownlocation"))
          .containsEntry("index", "none: no LKL_NEAR in the mix (ll.read.proportion.near=0)");
      assertThat(lklIndexKeys(client.getDatabase("ycsb"))).noneMatch(key -> key.contains("2dsphere"));
      assertThat(prepare(base)).as("preparing twice is preparing once").containsKey("LastKnownLocation lastknownlocation");

      Map<String, Map<String, Object>> near = prepare(with(base, "mongodb.drop", "true", "ll.read.proportion.lkl", "0.8",
          "ll.read.proportion.near", "0.1"));
      assertThat(near.get("LastKnownLocation lastknownlocation")).containsEntry("index", "{location: 2dsphere}");
      assertThat(lklIndexKeys(client.getDatabase("ycsb"))).anyMatch(key -> key.contains("2dsphere"));
      // Without drop an earlier index stays: what was built (nothing) and what is there are both said.
      assertThat(prepare(base).get("LastKnownLocation lastknownlocation").get("index").toString())
          .startsWith("none built").contains("an earlier 2dsphere index is kept");
    }
  }

  @Test
  void lastKnownLocationLivesOnTheClusterOfItsOwnUrl() throws Exception {
    try (InProcessMongo history = new InProcessMongo(); InProcessMongo lkl = new InProcessMongo();
         MongoClient historyClient = MongoClients.create(history.url("ycsb"));
         MongoClient lklClient = MongoClients.create(lkl.url("ycsb"))) {
      Properties p = with(history.properties(WORKLOAD), "mongodb.ll.lkl.url", lkl.url("ycsb"), "mongodb.drop", "true");
      Map<String, Map<String, Object>> steps = prepare(p);
      assertThat(steps.get("LastKnownLocation lastknownlocation")).containsEntry("url", lkl.url("ycsb"));

      MongoGeoBinding db = binding(p);
      try {
        assertThat(db.upsertLastLocation(SplitScenario.event("350000000000006", 1000, 1))).isEqualTo(Status.OK);
        assertThat(db.appendHistory(SplitScenario.event("350000000000006", 1000, 1))).isIn(Status.OK, Status.BATCHED_OK);
        List<org.geoshard.lastlocation.contract.LocationEvent> out = new ArrayList<>();
        assertThat(db.readLastLocation("350000000000006", out)).isEqualTo(Status.OK);
        assertThat(out).hasSize(1);
      } finally {
        db.cleanup();
      }
      assertThat(lklClient.getDatabase("ycsb").getCollection("lastknownlocation").countDocuments()).isEqualTo(1);
      assertThat(historyClient.getDatabase("ycsb").getCollection("lastknownlocation").countDocuments()).isZero();
      assertThat(historyClient.getDatabase("ycsb").getCollection("history").countDocuments()).isEqualTo(1);
      assertThat(lklClient.getDatabase("ycsb").getCollection("history").countDocuments()).isZero();
    }
  }

  @Test
  void aMalformedLklUrlIsOneSentenceNamingTheProperty() throws Exception {
    try (InProcessMongo mongo = new InProcessMongo()) {
      Properties p = with(mongo.properties(WORKLOAD), "mongodb.ll.lkl.url", "http://elsewhere:27017");
      assertThatThrownBy(() -> binding(p)).isInstanceOf(DBException.class)
          .hasMessageContaining("'mongodb.ll.lkl.url' must be a mongodb:// or mongodb+srv:// connection string");
      assertThat(new MongoProperties().problems(p)).anyMatch(problem -> problem.contains("mongodb.ll.lkl.url"));
    }
  }

  @Test
  void insertOnlyAppendsHistoryAndNeverTouchesLastKnownLocation() throws Exception {
    try (InProcessMongo mongo = new InProcessMongo()) {
      Properties p = with(mongo.properties(WORKLOAD), "ll.write.mode", "insertonly", "ll.read.proportion.lkl", "0",
          "ll.read.proportion.range", "1", "ll.insert.rate", "200", "threadcount", "1", "operationcount", "0",
          "status.interval", "0", "mongodb.drop", "true");
      p.remove("maxexecutiontime");
      p.setProperty("results.dir", dir.resolve("load").toString());
      RunResult load = new Runner(RunSettings.fromProperties(Phase.LOAD, p, "ll"), p,
          new Binding("mongodb-geo", MongoGeoBinding.class), dir).execute();
      assertThat(load.hasFailures()).isFalse();
      assertThat(load.perOperation()).doesNotContainKeys("LKL_UPSERT", "LKL_STALE");
      p.setProperty("results.dir", dir.resolve("run").toString());
      p.setProperty("maxexecutiontime", "5");  // any number of events will do: a busy machine makes few
      RunResult run = new Runner(RunSettings.fromProperties(Phase.RUN, p, "ll"), p,
          new Binding("mongodb-geo", MongoGeoBinding.class), dir).execute();
      assertThat(run.errors()).isZero();
      assertThat(run.perOperation()).doesNotContainKeys("LKL_UPSERT", "LKL_STALE", "LKL_READ", "LKL_NEAR");
      long appended = run.perOperation().get("HISTORY_INSERT").count();
      assertThat(appended).isPositive();
      assertThat(run.perOperation().get("HISTORY_RANGE").count()).isPositive();
      try (MongoClient client = MongoClients.create(mongo.url("ycsb"))) {
        MongoDatabase db = client.getDatabase("ycsb");
        assertThat(db.getCollection("history").countDocuments()).isEqualTo(100 * 2 + appended);
        assertThat(db.getCollection("lastknownlocation").countDocuments()).isZero();
      }
    }
  }
}
