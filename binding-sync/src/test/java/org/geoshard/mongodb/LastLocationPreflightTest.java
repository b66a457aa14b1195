package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.bson.Document;
import org.geoshard.harness.api.DataRole;
import org.geoshard.harness.api.Preflight;
import org.geoshard.harness.api.Preflight.Check;
import org.geoshard.lastlocation.LastLocationWorkload;
import org.geoshard.lastlocation.contract.LastLocationContract;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The location stream's collections before a load and a run (issue 37): History (every collection of its
 * split) and LastKnownLocation against what a complete load writes, a lower bound; empty ones refused
 * before a run that reads them, by preflight and the run in one sentence; the insert-only tables never.
 * Against the in-process stand-in.
 */
class LastLocationPreflightTest {
  private static final Set<DataRole> STREAM = Set.of(LastLocationContract.HISTORY, LastLocationContract.LAST_KNOWN);
  private static final String[] INSERT_ONLY = {"ll.write.mode", "insertonly", "ll.read.proportion.lkl", "0",
      "ll.read.proportion.range", "1"};
  private InProcessMongo mongo;

  @BeforeEach
  void start() {
    mongo = new InProcessMongo();
  }

  @AfterEach
  void stop() {
    mongo.close();
    assertThat(LeftOpen.standaloneClients().openClients()).isZero();
  }

  /** 100 users, 2 events each at the load: History 200, LastKnownLocation 100. */
  private Properties stream(String... pairs) {
    Properties p = mongo.properties("workload", LastLocationWorkload.class.getName(), "ll.users", "100",
        "ll.cells", "50", "ll.writers", "2", "ll.history.peruser", "2");
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return p;
  }

  private static List<Check> preflight(Properties p, Preflight.Before before) throws Exception {
    return InPhase.preflight(new MongoGeoBinding(), p, new LastLocationWorkload(), before);
  }

  /** The run's refusal before its threads start, or null when it would start. */
  private static String refusal(Properties p) throws Exception {
    return InPhase.refusal(new MongoGeoBinding(), p, new LastLocationWorkload(), STREAM);
  }

  private static List<Check> named(List<Check> checks, String name) {
    return checks.stream().filter(c -> c.name().equals(name)).toList();
  }

  private void insert(String collection, int n) {
    try (MongoClient client = MongoClients.create(mongo.url("ycsb"))) {
      List<Document> docs = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        docs.add(new Document("n", i));
      }
      client.getDatabase("ycsb").getCollection(collection).insertMany(docs);
    }
  }

  private String empty(String place) {
    return place + " at " + mongo.url("ycsb") + " holds no records, and this run reads loaded data: load it first "
        + "(bin/ycsb load with the same properties), or check the table, collection or URL.";
  }

  @Test
  void emptyCollectionsAreFineBeforeALoadAndRefusedBeforeARunInTheRunsOwnSentence() throws Exception {
    List<Check> load = preflight(stream(), Preflight.Before.LOAD);
    assertThat(named(load, "collection")).containsExactly(
        Check.ok("collection", "ycsb.history is empty or absent: a load fills it (200 documents)"),
        Check.ok("collection", "ycsb.lastknownlocation is empty or absent: a load fills it (100 documents)"));
    assertThat(load).noneMatch(c -> c.status() == Preflight.Verdict.FAIL);

    String history = empty("Collection ycsb.history");
    String lkl = empty("Collection ycsb.lastknownlocation");
    assertThat(refusal(stream())).isEqualTo(history + " " + lkl);
    List<Check> run = preflight(stream(), Preflight.Before.RUN);
    assertThat(named(run, "the run would refuse")).containsExactly(Check.fail("the run would refuse", history),
        Check.fail("the run would refuse", lkl));
    assertThat(named(run, "collection")).as("the refusals say it").isEmpty();

    // History loaded, LastKnownLocation not: only the latter is refused.
    insert("history", 200);
    assertThat(refusal(stream())).isEqualTo(lkl);
    assertThat(named(preflight(stream(), Preflight.Before.RUN), "the run would refuse"))
        .containsExactly(Check.fail("the run would refuse", lkl));
  }

  @Test
  void theCountsAreComparedWithWhatALoadWritesAsALowerBound() throws Exception {
    insert("history", 150);
    insert("lastknownlocation", 100);
    List<Check> partial = named(preflight(stream(), Preflight.Before.RUN), "collection");
    assertThat(partial).containsExactly(
        Check.fail("collection", "ycsb.history holds 150 documents, but the scenario's dataset has at least 200: load "
            + "it completely with the same properties (a split load's parts add up to it)"),
        Check.ok("collection", "ycsb.lastknownlocation holds 100 documents (at least 100 expected: the scenario's runs"
            + " add to the loaded data, so this is a lower bound)"));
    insert("history", 70);  // 220: a run appended to a complete load
    assertThat(named(preflight(stream(), Preflight.Before.RUN), "collection").get(0)).isEqualTo(Check.ok("collection",
        "ycsb.history holds 220 documents (at least 200 expected: the scenario's runs add to the loaded data, so this "
            + "is a lower bound)"));
    assertThat(refusal(stream())).isNull();
  }

  @Test
  void aSplitHistoryIsCountedOverAllItsCollections() throws Exception {
    Properties split = stream("ll.history.split", "month");
    assertThat(refusal(split)).startsWith(empty("History ycsb.history_* (ll.history.split=month)"));
    insert("history_2026_01", 120);
    insert("history_2026_02", 90);
    insert("history_other", 500);  // not one of History's: not counted
    insert("lastknownlocation", 100);
    assertThat(named(preflight(split, Preflight.Before.RUN), "collection").get(0)).isEqualTo(Check.ok("collection",
        "ycsb.history_* (ll.history.split=month: 2 collections) holds 210 documents (at least 200 expected: the "
            + "scenario's runs add to the loaded data, so this is a lower bound)"));
    assertThat(refusal(split)).isNull();
  }

  @Test
  void lastKnownLocationIsReadOnTheClusterOfItsOwnUrl() throws Exception {
    try (InProcessMongo lklCluster = new InProcessMongo()) {
      Properties p = stream("mongodb.ll.lkl.url", lklCluster.url("ycsb"));
      insert("history", 200);
      insert("lastknownlocation", 100);  // on mongodb.url's cluster: not where the stream keeps it
      String lkl = "Collection ycsb.lastknownlocation at " + lklCluster.url("ycsb") + " holds no records, and this run "
          + "reads loaded data: load it first (bin/ycsb load with the same properties), or check the table, collection or URL.";
      assertThat(refusal(p)).isEqualTo(lkl);
      assertThat(named(preflight(p, Preflight.Before.RUN), "the run would refuse"))
          .containsExactly(Check.fail("the run would refuse", lkl));
      try (MongoClient client = MongoClients.create(lklCluster.url("ycsb"))) {
        client.getDatabase("ycsb").getCollection("lastknownlocation").insertOne(new Document("n", 1));
      }
      assertThat(named(preflight(p, Preflight.Before.RUN), "collection").get(1)).isEqualTo(Check.fail("collection",
          "ycsb.lastknownlocation at " + lklCluster.url("ycsb") + " holds 1 documents, but the scenario's dataset has at "
              + "least 100: load it completely with the same properties (a split load's parts add up to it)"));
      assertThat(refusal(p)).isNull();
    }
  }

  @Test
  void theInsertOnlyTablesMayStartEmptyAndKeepNoLastKnownLocation() throws Exception {
    Properties insertOnly = stream(INSERT_ONLY);
    assertThat(refusal(insertOnly)).isNull();
    List<Check> run = preflight(insertOnly, Preflight.Before.RUN);
    assertThat(run).noneMatch(c -> c.status() == Preflight.Verdict.FAIL);
    assertThat(named(run, "collection")).containsExactly(
        Check.ok("collection", "ycsb.history is empty or absent: this run only inserts"));
  }
}
