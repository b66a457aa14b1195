package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.bson.Document;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.output.RunResult;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.Runner;
import org.geoshard.harness.measure.StopReason;
import org.geoshard.lastlocation.LastLocationWorkload;
import org.geoshard.lastlocation.SplitScenario;
import org.geoshard.lastlocation.contract.LastLocationContract;
import org.geoshard.lastlocation.contract.LocationEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.Status;

/**
 * The last-location contract on the driver path, against mongo-java-server in process (CRUD,
 * upserts with $lt filters, duplicate-key errors: what it supports; not $nearSphere or sharding).
 */
class MongoLastLocationTest {
  @TempDir
  Path dir;

  private InProcessMongo mongo;

  @BeforeEach
  void start() {
    mongo = new InProcessMongo();
  }

  @AfterEach
  void stop() {
    mongo.close();
  }

  private MongoGeoBinding binding(String... pairs) throws Exception {
    MongoGeoBinding binding = new MongoGeoBinding();
    binding.setProperties(mongo.properties(pairs));
    binding.init();
    return binding;
  }


  @Test
  void onlyANewerEventReplacesTheLastKnownLocation() throws Exception {
    MongoGeoBinding db = binding();
    try {
      assertThat(db.upsertLastLocation(SplitScenario.event("350000000000006", 1000, 1))).isEqualTo(Status.OK);
      assertThat(db.upsertLastLocation(SplitScenario.event("350000000000006", 2000, 2))).isEqualTo(Status.OK);
      assertThat(db.upsertLastLocation(SplitScenario.event("350000000000006", 1500, 3))).isEqualTo(LastLocationContract.STALE);
      assertThat(db.upsertLastLocation(SplitScenario.event("350000000000006", 2000, 4))).isEqualTo(LastLocationContract.STALE);
      List<LocationEvent> out = new ArrayList<>();
      assertThat(db.readLastLocation("350000000000006", out)).isEqualTo(Status.OK);
      assertThat(out).containsExactly(SplitScenario.event("350000000000006", 2000, 2));
      assertThat(db.readLastLocation("359999999999999", out)).isEqualTo(Status.OK);
      assertThat(out).isEmpty();
    } finally {
      db.cleanup();
    }
  }

  private List<List<LocationEvent>> writeAndQuery(String split, List<LocationEvent> events) throws Exception {
    MongoGeoBinding db = binding("ll.history.split", split, "ll.history.batchsize", "40",
        MongoLastLocationSettings.HISTORY, "history_" + split);
    List<List<LocationEvent>> answers = new ArrayList<>();
    try {
      for (LocationEvent e : events) {
        assertThat(db.appendHistory(e)).isIn(Status.OK, Status.BATCHED_OK);
      }
    } finally {
      db.cleanup();
    }
    db = binding("ll.history.split", split, MongoLastLocationSettings.HISTORY, "history_" + split);
    try {
      answers.addAll(SplitScenario.ranges(db, 100, 10));
    } finally {
      db.cleanup();
    }
    return answers;
  }

  @Test
  void aTimeSplitHistoryAnswersRangesAsTheUnsplitOne() throws Exception {
    List<LocationEvent> events = SplitScenario.events(1000, 10, 518_400L);
    List<List<LocationEvent>> unsplit = writeAndQuery("none", events);
    assertThat(writeAndQuery("day", events)).isEqualTo(unsplit);
    assertThat(writeAndQuery("month", events)).isEqualTo(unsplit);
    assertThat(unsplit.stream().mapToInt(List::size).sum()).isGreaterThan(300);
    try (MongoClient client = MongoClients.create(mongo.url("ycsb"))) {
      List<String> names = client.getDatabase("ycsb").listCollectionNames().into(new ArrayList<>());
      assertThat(names).contains("history_month_2026_01", "history_month_2026_02", "history_day_2026_02_03");
    }
  }

  @Test
  void afterAnyInterleavingTheLastKnownLocationIsEachUsersNewestEvent() throws Exception {
    Properties p = mongo.properties("workload", LastLocationWorkload.class.getName(), "ll.users", "200",
        "ll.cells", "100", "ll.writers", "2", "ll.outoforder", "0.2", "ll.history.batchsize", "7",
        "ll.history.peruser", "2", "ll.insert.rate", "1000", "threadcount", "2", "operationcount", "0",
        "status.interval", "0", "ll.read.proportion.lkl", "0.8", "ll.read.proportion.range", "0.2");
    p.setProperty("results.dir", dir.resolve("load").toString());
    // The load inserts every user's first events, however long a busy machine takes; only the run is timed.
    p.remove("maxexecutiontime");
    RunResult load = new Runner(RunSettings.fromProperties(Phase.LOAD, p, "ll"), p,
        new Binding("mongodb-geo", MongoGeoBinding.class), dir).execute();
    assertThat(load.hasFailures()).isFalse();
    assertThat(load.stopReason()).isEqualTo(StopReason.COMPLETED);
    p.setProperty("results.dir", dir.resolve("run").toString());
    p.setProperty("maxexecutiontime", "12");  // more events to check, though any number will do
    RunResult run = new Runner(RunSettings.fromProperties(Phase.RUN, p, "ll"), p,
        new Binding("mongodb-geo", MongoGeoBinding.class), dir).execute();
    assertThat(run.errors()).isZero();
    long appended = run.perOperation().get("HISTORY_INSERT").count();
    long stale = run.perOperation().get("LKL_STALE").count();
    // The in-process server is slow, and far slower on a busy machine (20 events in 4 s were seen under a
    // load average of 17): what matters is the semantics, checked on however many events there were.
    assertThat(appended).isPositive();
    assertThat(run.perOperation().get("LKL_UPSERT").count() + stale).isEqualTo(appended);
    // 20% late: within 5 points or five binomial standard deviations, however many events a busy machine made.
    double margin = Math.max(0.05 * appended, 5 * Math.sqrt(appended * 0.2 * 0.8));
    assertThat((double) stale).isBetween(appended * 0.2 - margin, appended * 0.2 + margin);

    try (MongoClient client = MongoClients.create(mongo.url("ycsb"))) {
      MongoDatabase db = client.getDatabase("ycsb");
      assertThat(db.getCollection("history").countDocuments()).isEqualTo(200 * 2 + appended);
      Map<String, Long> newest = new HashMap<>();
      for (Document d : db.getCollection("history").find()) {
        newest.merge(d.getString("UserId"), d.getLong("Timestamp"), Math::max);
      }
      List<Document> lkl = db.getCollection("lastknownlocation").find().into(new ArrayList<>());
      assertThat(lkl).hasSize(200);
      for (Document d : lkl) {
        assertThat(d.getLong("T")).as("newest of %s", d.getString("_id")).isEqualTo(newest.get(d.getString("_id")));
      }
    }
  }
}
