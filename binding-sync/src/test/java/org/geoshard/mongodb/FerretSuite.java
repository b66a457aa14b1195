package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Vector;
import java.util.concurrent.atomic.AtomicInteger;
import org.bson.Document;
import org.geoshard.geo.GeoSettings;
import org.geoshard.geo.GeoWorkload;
import org.geoshard.geo.dataset.RestaurantDataset;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.output.RunResult;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.Runner;
import org.geoshard.harness.run.StartFailedException;
import org.geoshard.lastlocation.LastLocationWorkload;
import org.geoshard.lastlocation.contract.LocationEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.ByteIterator;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/**
 * One binding against FerretDB, a second real wire server that is NOT MongoDB (see {@link FerretServer}):
 * what an independent implementation of the protocol answers, with exact counts, where the in-process
 * stand-in could agree with the bindings by accident. Each binding's subclass runs every check.
 *
 * <p>Checked here: YCSB's insert, batched insert, read, update, scan and delete with exact counts;
 * duplicate keys as errors, alone and inside a batch; the geo load's documents and counts and the
 * refusal of a second load over the same records; History appends and batch outcomes across a server
 * killed and restarted, and reconnecting afterwards; the last-location upsert's insert and newer-event
 * branches; a request the driver fails on (FerretDB's duplicate-key reply to an upsert lacks {@code n})
 * never costs a pooled connection; preflight's reading of the server and the collection.
 *
 * <p>Not checked here, because FerretDB does not do it, and where it is checked instead: 2dsphere
 * indexes and {@code $nearSphere} (the {@code *ContainerTest} suites on real MongoDB, {@code bin/test
 * mongodb}: {@code StandaloneNearContainerTest}, and {@code NearQueryWireTest} for the query's shape);
 * sharding, chunks and targeting ({@code ShardedClusterContainerTest}, {@code ThreeRouterClusterContainerTest},
 * {@code QueryTargetingContainerTest}); {@code explain} with executionStats ({@code MongoExplainTest} and
 * the container suites); the last-location stale branch, whose duplicate-key reply FerretDB answers without
 * {@code n} ({@code MongoLastLocationTest} on the stand-in, {@code LastLocationContainerTest} on MongoDB).
 * The geo load's after-load 2dsphere step fails there (IndexNotFound): the load's documents are checked,
 * not its preparation. FerretDB's throughput means nothing for MongoDB: never report it.
 *
 * <p>Skipped unless {@value FerretServer#URL_PROPERTY} is given; {@code bin/test ferretdb} gives it and
 * fails if these tests were skipped.
 */
@EnabledIfSystemProperty(named = FerretServer.URL_PROPERTY, matches = ".+")
public abstract class FerretSuite {
  @TempDir
  protected Path dir;
  private String database;
  private MongoClient client;
  private final List<MongoBinding> open = new ArrayList<>();

  /** A new, not yet initialised binding of the kind under test. */
  protected abstract MongoBinding newBinding();

  /** The same, as the harness names and makes it. */
  protected abstract Binding harnessBinding();

  @BeforeEach
  void start(TestInfo test) {
    String kind = harnessBinding().name().replace("mongodb-", "");
    String method = test.getTestMethod().orElseThrow().getName();
    database = (kind + "_" + method).substring(0, Math.min(60, kind.length() + 1 + method.length()));
    client = MongoClients.create(FerretServer.shared(database));
    client.getDatabase(database).drop();
  }

  @AfterEach
  void stop() {
    for (MongoBinding b : open) {
      try {
        b.cleanup();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
    client.close();
    assertThat(LeftOpen.standaloneClients().openClients()).as("every client let go").isZero();
  }

  protected MongoDatabase db() {
    return client.getDatabase(database);
  }

  protected MongoBinding binding(String... pairs) throws Exception {
    return binding(FerretServer.properties(database, pairs));
  }

  protected MongoBinding binding(Properties p) throws Exception {
    MongoBinding b = newBinding();
    b.setProperties(p);
    b.init();
    open.add(b);
    return b;
  }

  /** Cleans up a binding before the end of the test (flushing what it buffered). */
  protected void close(MongoBinding b) throws Exception {
    open.remove(b);
    b.cleanup();
  }

  private static Map<String, ByteIterator> fields(String value) {
    Map<String, ByteIterator> values = new HashMap<>();
    values.put("field0", new StringByteIterator(value));
    values.put("field1", new StringByteIterator(value + "-1"));
    return values;
  }

  private static String key(int i) {
    return String.format("user%03d", i);
  }

  @Test
  void ycsbOperationsCountExactly() throws Exception {
    MongoBinding b = binding();
    for (int i = 0; i < 40; i++) {
      assertThat(b.insert("usertable", key(i), fields("v" + i))).as("insert %d", i).isEqualTo(Status.OK);
    }
    MongoCollection<Document> table = db().getCollection("usertable");
    assertThat(table.countDocuments()).isEqualTo(40);
    Map<String, ByteIterator> row = new HashMap<>();
    for (int i = 0; i < 40; i++) {
      row.clear();
      assertThat(b.read("usertable", key(i), null, row)).isEqualTo(Status.OK);
      assertThat(row.get("field0").toString()).isEqualTo("v" + i);
    }
    for (int i = 0; i < 10; i++) {
      assertThat(b.update("usertable", key(i), Map.of("field0", new StringByteIterator("u" + i)))).isEqualTo(Status.OK);
    }
    row.clear();
    b.read("usertable", key(3), null, row);
    assertThat(row.get("field0").toString()).isEqualTo("u3");
    assertThat(row.get("field1").toString()).as("an update leaves the other fields").isEqualTo("v3-1");
    Vector<HashMap<String, ByteIterator>> scanned = new Vector<>();
    assertThat(b.scan("usertable", key(8), 5, null, scanned)).isEqualTo(Status.OK);
    assertThat(scanned).extracting(r -> r.get("field1").toString()).containsExactly("v8-1", "v9-1", "v10-1", "v11-1", "v12-1");
    scanned.clear();
    assertThat(b.scan("usertable", key(37), 10, null, scanned)).isEqualTo(Status.OK);
    assertThat(scanned).hasSize(3);
    for (int i = 0; i < 5; i++) {
      assertThat(b.delete("usertable", key(i))).isEqualTo(Status.OK);
    }
    assertThat(table.countDocuments()).isEqualTo(35);
    assertThat(b.read("usertable", key(0), null, new HashMap<>())).isEqualTo(Status.NOT_FOUND);
    assertThat(b.update("usertable", key(1), fields("x"))).isEqualTo(Status.NOT_FOUND);
    assertThat(b.delete("usertable", key(2))).isEqualTo(Status.NOT_FOUND);
  }

  @Test
  void duplicateKeysAreErrorsAloneAndInsideABatch() throws Exception {
    MongoBinding b = binding();
    assertThat(b.insert("usertable", "dup", fields("a"))).isEqualTo(Status.OK);
    assertThat(b.insert("usertable", "dup", fields("b"))).isEqualTo(Status.ERROR);
    db().getCollection("usertable").insertOne(new Document("_id", key(5)));

    MongoBinding batched = binding("batchsize", "7");
    AtomicInteger ok = new AtomicInteger();
    AtomicInteger failed = new AtomicInteger();
    batched.batchOutcomeListener((operation, written, notWritten) -> {
      ok.addAndGet(written);
      failed.addAndGet(notWritten);
    });
    List<Status> statuses = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      statuses.add(batched.insert("usertable", key(i), fields("v" + i)));
    }
    close(batched);
    // The insert that fills a batch answers for itself; the listener settles the ones buffered before it.
    assertThat(statuses.stream().filter(s -> s == Status.BATCHED_OK).count()).as("all but each seventh buffered").isEqualTo(26);
    assertThat(statuses.stream().filter(s -> s == Status.OK).count()).isEqualTo(4);
    assertThat(ok.get()).as("buffered and written").isEqualTo(25);
    assertThat(failed.get()).as("the duplicate of user005").isEqualTo(1);
    assertThat(db().getCollection("usertable").countDocuments()).isEqualTo(31);
    assertThat(db().getCollection("usertable").find(new Document("_id", key(5))).first()).as("not overwritten")
        .isEqualTo(new Document("_id", key(5)));
  }

  @Test
  void theGeoLoadWritesEveryRestaurantOnceAndASecondLoadIsRefused() throws Exception {
    Properties p = FerretServer.properties(database, "workload", GeoWorkload.class.getName(),
        "geo.cities", TestCities.write(dir).toString(), "geo.scale", "0.03", "seed", "11", "status.interval", "0",
        "threadcount", "2", "results.dir", dir.resolve("load").toString());
    RestaurantDataset dataset = GeoWorkload.datasetOf(GeoSettings.fromProperties(p));
    RunResult result = new Runner(RunSettings.fromProperties(Phase.LOAD, p, "geo"), p, harnessBinding(), dir).execute();
    long n = dataset.size();
    assertThat(result.perOperation().get("INSERT").count()).isEqualTo(n);
    assertThat(result.errors()).isZero();
    // FerretDB builds no 2dsphere index: the after-load step fails, said as one sentence with the server's answer.
    assertThat(result.preparationFailure()).startsWith("Preparing the database after the load failed: step"
        + " '2dsphere index' on " + database + ".restaurants failed: the server answered ")
        .doesNotContain("full response");
    MongoCollection<Document> restaurants = db().getCollection("restaurants");
    assertThat(restaurants.countDocuments()).isEqualTo(n);
    List<Document> stored = restaurants.find().sort(new Document("_id", 1)).into(new ArrayList<>());
    for (int k = 0; k < n; k++) {
      assertThat(RestaurantDocuments.fromDocument(stored.get(k))).as("restaurant %d", k).isEqualTo(dataset.restaurant(k));
    }
    p.setProperty("results.dir", dir.resolve("again").toString());
    assertThatThrownBy(() -> new Runner(RunSettings.fromProperties(Phase.LOAD, p, "geo"), p, harnessBinding(), dir).execute())
        .isInstanceOf(StartFailedException.class)
        .hasMessageContaining("already holds " + n + " documents")
        .hasMessageContaining("mongodb.drop=true");
    assertThat(restaurants.countDocuments()).isEqualTo(n);
  }

  @Test
  void preflightReadsTheServerAndTheCollection() throws Exception {
    Properties p = FerretServer.properties(database, "workload", GeoWorkload.class.getName(), "geo.scale", "0.0001");
    GeoWorkload workload = new GeoWorkload();
    workload.init(p);
    long expected = workload.dataset().size();
    List<Document> docs = new ArrayList<>();
    for (long i = 0; i < expected; i++) {
      docs.add(new Document("_id", i));
    }
    db().getCollection("restaurants").insertMany(docs);
    List<org.geoshard.harness.api.Preflight.Check> run = ferretPreflight(p, workload, org.geoshard.harness.api.Preflight.Before.RUN);
    assertThat(run).extracting(org.geoshard.harness.api.Preflight.Check::name)
        .containsExactly("nodes reached", "server version", "topology", "collection", "the run would refuse",
            "index build progress", "indexes", "clock skew");
    // FerretDB says it is MongoDB 7.0 (buildInfo's version) but names itself (ferretdbVersion): it is called FerretDB,
    // and its feature compatibility version (admin.system.version) is unreadable: a warning, never ok.
    org.geoshard.harness.api.Preflight.Check version = MongoPreflightTest.named(run, "server version");
    assertThat(version.status()).isEqualTo(org.geoshard.harness.api.Preflight.Verdict.WARN);
    assertThat(version.detail()).matches("FerretDB 1\\.\\d+\\.\\d+ \\(not MongoDB; it answers as MongoDB 7\\.0\\.\\d+\\), "
        + "feature compatibility version unreadable: its measurements say nothing of MongoDB");
    assertThat(MongoPreflightTest.named(run, "index build progress").detail())
        .startsWith("from the IndexBuildsCoordinatorMongod entry of $currentOp");
    assertThat(MongoPreflightTest.named(run, "topology").detail()).isEqualTo("standalone");
    assertThat(MongoPreflightTest.named(run, "collection").detail()).isEqualTo(String.format(
        "%s.restaurants holds %,d documents (the scenario's dataset: %,d)", database, expected, expected));
    // FerretDB has no 2dsphere index: the run refuses, and preflight fails with the run's sentence.
    assertThat(MongoPreflightTest.named(run, "the run would refuse").detail())
        .startsWith("Collection " + database + ".restaurants has no 2dsphere index on 'location'");
    assertThat(MongoPreflightTest.named(run, "clock skew").detail()).matches("server clock [+-]\\d+ ms .*");
    List<org.geoshard.harness.api.Preflight.Check> load = ferretPreflight(p, workload, org.geoshard.harness.api.Preflight.Before.LOAD);
    assertThat(load).noneMatch(c -> c.status() == org.geoshard.harness.api.Preflight.Verdict.FAIL);
  }

  /**
   * The location stream (issue 37): on an empty database preflight fails with the sentences the run refuses
   * with; after a real load History and LastKnownLocation hold exactly what the scenario expects, said as
   * a lower bound; the insert-only tables may start empty.
   */
  @Test
  void theLocationStreamIsRefusedEmptyAndCountedAfterItsLoad() throws Exception {
    Properties p = FerretServer.properties(database, "workload", LastLocationWorkload.class.getName(), "ll.users", "60",
        "ll.cells", "20", "ll.writers", "1", "ll.history.peruser", "2", "ll.history.batchsize", "10", "seed", "5",
        "status.interval", "0", "threadcount", "2", "operationcount", "0", "maxexecutiontime", "2",
        "results.dir", dir.resolve("run").toString());
    LastLocationWorkload workload = new LastLocationWorkload();
    workload.init(p);
    String tail = " at " + FerretServer.shared(database) + " holds no records, and this run reads loaded data: load it"
        + " first (bin/ycsb load with the same properties), or check the table, collection or URL.";
    String history = "Collection " + database + ".history" + tail;
    String lkl = "Collection " + database + ".lastknownlocation" + tail;
    List<org.geoshard.harness.api.Preflight.Check> empty = ferretPreflight(p, workload,
        org.geoshard.harness.api.Preflight.Before.RUN);
    assertThat(empty.stream().filter(c -> c.name().equals("the run would refuse")).toList()).containsExactly(
        org.geoshard.harness.api.Preflight.Check.fail("the run would refuse", history),
        org.geoshard.harness.api.Preflight.Check.fail("the run would refuse", lkl));
    assertThatThrownBy(() -> new Runner(RunSettings.fromProperties(Phase.RUN, p, "ll"), p, harnessBinding(), dir).execute())
        .isInstanceOf(StartFailedException.class).hasMessageContaining(history).hasMessageContaining(lkl);
    assertThat(ferretPreflight(p, workload, org.geoshard.harness.api.Preflight.Before.LOAD))
        .noneMatch(c -> c.status() == org.geoshard.harness.api.Preflight.Verdict.FAIL);

    Properties insertOnly = new Properties();
    insertOnly.putAll(p);
    insertOnly.putAll(Map.of("ll.write.mode", "insertonly", "ll.read.proportion.lkl", "0", "ll.read.proportion.range", "1"));
    LastLocationWorkload appending = new LastLocationWorkload();
    appending.init(insertOnly);
    assertThat(ferretPreflight(insertOnly, appending, org.geoshard.harness.api.Preflight.Before.RUN))
        .noneMatch(c -> c.status() == org.geoshard.harness.api.Preflight.Verdict.FAIL)
        .contains(org.geoshard.harness.api.Preflight.Check.ok("collection",
            database + ".history is empty or absent: this run only inserts"));

    p.setProperty("results.dir", dir.resolve("load").toString());
    RunResult load = new Runner(RunSettings.fromProperties(Phase.LOAD, p, "ll"), p, harnessBinding(), dir).execute();
    assertThat(load.errors()).isZero();
    List<org.geoshard.harness.api.Preflight.Check> loaded = ferretPreflight(p, workload,
        org.geoshard.harness.api.Preflight.Before.RUN);
    assertThat(loaded.stream().filter(c -> c.name().equals("collection")).toList()).containsExactly(
        org.geoshard.harness.api.Preflight.Check.ok("collection", database + ".history holds 120 documents (at least 120"
            + " expected: the scenario's runs add to the loaded data, so this is a lower bound)"),
        org.geoshard.harness.api.Preflight.Check.ok("collection", database + ".lastknownlocation holds 60 documents (at"
            + " least 60 expected: the scenario's runs add to the loaded data, so this is a lower bound)"));
    assertThat(loaded).extracting(org.geoshard.harness.api.Preflight.Check::name).doesNotContain("the run would refuse");
  }

  private List<org.geoshard.harness.api.Preflight.Check> ferretPreflight(Properties p, Object workload,
      org.geoshard.harness.api.Preflight.Before before) throws Exception {
    MongoBinding b = newBinding();
    b.setProperties(p);
    try (org.geoshard.harness.api.SharedObjects shared = new org.geoshard.harness.api.SharedObjects(
        org.geoshard.harness.api.DataDeclaration.ofInitialised(workload, p))) {
      b.joinRun(shared);
      b.init();
      try {
        return b.preflight(before);
      } finally {
        b.cleanup();
      }
    }
  }

  private static LocationEvent event(String user, long ts, int cell) {
    return new LocationEvent(user, cell, ts, 50 + cell * 0.001, 20 + cell * 0.001);
  }

  @Test
  void theLastKnownLocationIsInsertedThenReplacedByANewerEvent() throws Exception {
    MongoBinding b = binding();
    long t = 1_769_731_200_000L;
    assertThat(b.upsertLastLocation(event("350000000000007", t, 1))).isEqualTo(Status.OK);
    List<LocationEvent> out = new ArrayList<>();
    assertThat(b.readLastLocation("350000000000007", out)).isEqualTo(Status.OK);
    assertThat(out).containsExactly(event("350000000000007", t, 1));
    assertThat(b.upsertLastLocation(event("350000000000007", t + 5_000, 2))).isEqualTo(Status.OK);
    assertThat(b.readLastLocation("350000000000007", out)).isEqualTo(Status.OK);
    assertThat(out).containsExactly(event("350000000000007", t + 5_000, 2));
    assertThat(db().getCollection("lastknownlocation").countDocuments()).isEqualTo(1);
  }

  /**
   * A LastKnownLocation key beyond _id ({@link WholeKeyUpsert}; FerretDB shards nothing, the key only decides
   * how the upsert is written): a move is read and written by the stored cell, and a stale event is told by
   * the stored time, not by the duplicate key whose reply FerretDB sends without {@code n}.
   */
  @Test
  void aKeyBeyondIdFollowsAMoveAndTellsAStaleEventByTheStoredTime() throws Exception {
    MongoBinding b = binding(MongoLastLocationSettings.LKL_SHARD_KEY, "_id:1,CellId:1");
    long t = 1_769_731_200_000L;
    String user = "350000000000009";
    assertThat(b.upsertLastLocation(event(user, t, 1))).as("first").isEqualTo(Status.OK);
    assertThat(b.upsertLastLocation(event(user, t + 5_000, 1))).as("stayed").isEqualTo(Status.OK);
    assertThat(b.upsertLastLocation(event(user, t + 9_000, 2))).as("moved").isEqualTo(Status.OK);
    assertThat(b.upsertLastLocation(event(user, t + 1_000, 3))).as("older, elsewhere")
        .isEqualTo(org.geoshard.lastlocation.contract.LastLocationContract.STALE);
    assertThat(b.upsertLastLocation(event(user, t + 9_000, 2))).as("as new")
        .isEqualTo(org.geoshard.lastlocation.contract.LastLocationContract.STALE);
    List<LocationEvent> out = new ArrayList<>();
    assertThat(b.readLastLocation(user, out)).isEqualTo(Status.OK);
    assertThat(out).containsExactly(event(user, t + 9_000, 2));
    assertThat(db().getCollection("lastknownlocation").countDocuments()).isEqualTo(1);
  }

  /**
   * An older event's upsert misses the filter and collides with the user's document: FerretDB answers
   * duplicate key without {@code n}, on which the driver throws inside its own callback. However that
   * request ends, its connection goes back: with a pool of two, many of them in a row leave every later
   * request working.
   */
  @Test
  void requestsTheDriverFailsOnNeverExhaustThePool() throws Exception {
    MongoBinding b = binding(MongoSettings.MAX_CONNECTIONS, "2", MongoSettings.TIMEOUT_MS, "3000",
        MongoSettings.SERVER_SELECTION_TIMEOUT, "3");
    long t = 1_769_731_200_000L;
    assertThat(b.upsertLastLocation(event("350000000000008", t, 1))).isEqualTo(Status.OK);
    for (int i = 0; i < 6; i++) {
      assertThat(b.upsertLastLocation(event("350000000000008", t - 1_000 - i, 2))).as("stale upsert %d", i)
          .isNotEqualTo(Status.OK);
    }
    List<LocationEvent> out = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      assertThat(b.readLastLocation("350000000000008", out)).as("read %d after the failed upserts", i).isEqualTo(Status.OK);
      assertThat(out).containsExactly(event("350000000000008", t, 1));
      assertThat(b.insert("usertable", key(i), fields("x"))).isEqualTo(Status.OK);
    }
  }

  /** Each appended event's outcome: the event that fills a batch answers for itself, the listener for the rest. */
  private static final class Tally implements org.geoshard.harness.api.BatchOutcomes.Listener {
    private int ok;
    private int failed;

    @Override
    public void settled(String operation, int written, int notWritten) {
      ok += written;
      failed += notWritten;
    }

    void add(Status status) {
      if (status == Status.OK) {
        ok++;
      } else if (status != Status.BATCHED_OK) {
        failed++;
      }
    }
  }

  @Test
  void historyBatchesSettleExactlyAcrossAServerKilledAndRestarted() throws Exception {
    try (FerretServer server = FerretServer.start(dir.resolve("private"))) {
      Properties p = FerretServer.properties(database, "ll.history.batchsize", "5", MongoSettings.TIMEOUT_MS, "3000",
          MongoSettings.SERVER_SELECTION_TIMEOUT, "2");
      p.setProperty(MongoSettings.URL, server.url(database));
      MongoBinding b = newBinding();
      b.setProperties(p);
      Tally tally = new Tally();
      b.batchOutcomeListener(tally);
      b.init();
      long t = 1_769_731_200_000L;
      int appended = 0;
      for (int i = 0; i < 20; i++, appended++) {
        tally.add(b.appendHistory(event("350000000000009", t + appended, i)));
      }
      assertThat(tally.ok).isEqualTo(20);
      server.kill();
      for (int i = 0; i < 10; i++, appended++) {
        tally.add(b.appendHistory(event("350000000000009", t + appended, i)));
      }
      assertThat(tally.failed).as("two batches while down").isEqualTo(10);
      server.restart();
      // The driver finds the server again by itself; allow it several deadlines: two batches in a row.
      long giveUp = System.nanoTime() + 60_000_000_000L;
      int inARow = 0;
      while (inARow < 2 && System.nanoTime() < giveUp) {
        int okBefore = tally.ok;
        for (int i = 0; i < 5; i++, appended++) {
          tally.add(b.appendHistory(event("350000000000009", t + appended, i)));
        }
        inARow = tally.ok == okBefore + 5 ? inARow + 1 : 0;
      }
      assertThat(inARow).as("writing again after the restart").isEqualTo(2);
      List<LocationEvent> out = new ArrayList<>();
      assertThat(b.historyRange("350000000000009", t, t + appended, out)).as("reading again").isEqualTo(Status.OK);
      b.cleanup();
      assertThat(tally.ok + tally.failed).as("every appended event settled once").isEqualTo(appended);
      try (MongoClient direct = MongoClients.create(server.url(database))) {
        assertThat(direct.getDatabase(database).getCollection("history").countDocuments()).as("exactly those written")
            .isEqualTo(tally.ok);
      }
      assertThat(out).hasSize(tally.ok);
    }
  }
}
