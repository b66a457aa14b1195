package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import java.util.List;
import org.bson.Document;
import org.geoshard.geo.GeoWorkload;
import org.geoshard.harness.api.Preflight;
import org.geoshard.harness.api.Preflight.Check;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code bin/ycsb preflight mongodb-geo}'s checks against the in-process stand-in (a standalone 4.2). */
public class MongoPreflightTest {
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

  static List<Check> preflight(MongoBinding db, java.util.Properties p) throws Exception {
    return preflight(db, p, Preflight.Before.RUN);
  }

  /** As {@code bin/ycsb preflight}: the binding joins a phase whose declaration comes from the initialised workload. */
  static List<Check> preflight(MongoBinding db, java.util.Properties p, Preflight.Before before) throws Exception {
    return InPhase.preflight(db, p, new GeoWorkload(), before);
  }

  private java.util.Properties geo(String... pairs) {
    java.util.Properties p = mongo.properties(pairs);
    p.setProperty("workload", GeoWorkload.class.getName());
    p.setProperty("geo.scale", "0.0001");
    return p;
  }

  private long restaurants() throws Exception {
    GeoWorkload workload = new GeoWorkload();
    workload.init(geo());
    return workload.dataset().size();
  }

  private void insert(long n, boolean index) {
    try (MongoClient client = MongoClients.create(mongo.url("ycsb"))) {
      var c = client.getDatabase("ycsb").getCollection("restaurants");
      for (long i = 0; i < n; i++) {
        c.insertOne(new Document("_id", i));
      }
      if (index) {
        c.createIndex(new Document("location", "2dsphere"));
      }
    }
  }

  public static Check named(List<Check> checks, String name) {
    return checks.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow(() -> new AssertionError(name + " in " + checks));
  }

  @Test
  void aStandaloneWithItsCompleteIndexedCollectionPasses() throws Exception {
    long expected = restaurants();
    insert(expected, true);
    List<Check> checks = preflight(new MongoGeoBinding(), geo());
    assertThat(checks).extracting(Check::name)
        .containsExactly("nodes reached", "server version", "topology", "collection", "index build progress", "indexes",
            "clock skew");
    assertThat(checks).noneMatch(c -> c.status() == Preflight.Verdict.FAIL);
    // The in-process stand-in is not MongoDB: named by what its buildInfo lacks, never "MongoDB 4.2.0".
    assertThat(named(checks, "server version")).isEqualTo(Check.warn("server version", "another MongoDB wire server "
        + "(not MongoDB; it answers as MongoDB 4.2.0), feature compatibility version unreadable: its measurements say "
        + "nothing of MongoDB"));
    assertThat(named(checks, "topology").detail()).isEqualTo("standalone");
    assertThat(named(checks, "collection")).isEqualTo(Check.ok("collection", String.format(
        "ycsb.restaurants holds %,d documents (the scenario's dataset: %,d)", expected, expected)));
    assertThat(named(checks, "indexes").detail()).contains("_id_").endsWith("(2dsphere on 'location')");
    // One machine, one clock: the skew is within a second (the warning's threshold).
    Check skew = named(checks, "clock skew");
    assertThat(skew.status()).isEqualTo(Preflight.Verdict.OK);
    assertThat(skew.detail()).matches("server clock [+-]\\d+ ms against this client \\(round trip \\d+ ms\\)");
  }

  @Test
  void aCountOtherThanTheDatasetsFails() throws Exception {
    long expected = restaurants();
    insert(12, true);
    Check collection = named(preflight(new MongoGeoBinding(), geo()), "collection");
    assertThat(collection).isEqualTo(Check.fail("collection", String.format("ycsb.restaurants holds 12 documents, but the "
        + "scenario's dataset has exactly %,d: the data was loaded with other properties (e.g. geo.scale, recordcount) "
        + "or not completely", expected)));
  }

  @Test
  void whatTheRunRefusesPreflightFailsWithTheSameSentence() throws Exception {
    insert(restaurants(), false);
    String refusal = InPhase.refusal(new MongoGeoBinding(), geo(), new GeoWorkload(),
        java.util.Set.of(org.geoshard.geo.contract.GeoContract.RESTAURANTS));
    assertThat(refusal).startsWith("Collection ycsb.restaurants has no 2dsphere index on 'location'");
    List<Check> checks = preflight(new MongoGeoBinding(), geo());
    assertThat(checks).contains(Check.fail("the run would refuse", refusal));
    assertThat(named(checks, "indexes").status()).isEqualTo(Preflight.Verdict.FAIL);
    // Before a load the missing index is fine: the load builds it.
    List<Check> beforeLoad = preflight(new MongoGeoBinding(), geo(), Preflight.Before.LOAD);
    assertThat(beforeLoad).noneMatch(c -> c.status() == Preflight.Verdict.FAIL);
    assertThat(named(beforeLoad, "indexes").detail()).endsWith("no 2dsphere index on 'location' (a load builds it)");
  }

  @Test
  void anEmptyCollectionIsFineBeforeALoadAndRefusedBeforeARun() throws Exception {
    insert(0, true);
    List<Check> load = preflight(new MongoGeoBinding(), geo(), Preflight.Before.LOAD);
    assertThat(named(load, "collection")).isEqualTo(Check.ok("collection", String.format(
        "ycsb.restaurants is empty or absent: a load fills it (%,d documents)", restaurants())));
    assertThat(load).noneMatch(c -> c.status() == Preflight.Verdict.FAIL);
    List<Check> run = preflight(new MongoGeoBinding(), geo());
    String sentence = "Collection ycsb.restaurants at " + mongo.url("ycsb") + " holds no records, and this run reads loaded data:"
        + " load it first (bin/ycsb load with the same properties), or check the table, collection or URL.";
    assertThat(run).contains(Check.fail("the run would refuse", sentence));
    assertThat(run).extracting(Check::name).doesNotContain("collection");
  }

  @Test
  void localTimeIsReadAsADateOrAnInt64() {
    assertThat(MongoPreflight.localTimeMillis(new Document("localTime", new java.util.Date(1_700_000_000_123L))))
        .isEqualTo(1_700_000_000_123L);
    assertThat(MongoPreflight.localTimeMillis(new Document("localTime", 1_700_000_000_123L))).isEqualTo(1_700_000_000_123L);
    assertThat(MongoPreflight.localTimeMillis(new Document("localTime", "noon"))).isNull();
    assertThat(MongoPreflight.localTimeMillis(new Document())).isNull();
  }

  @Test
  void theServersKindComesFromItsBuildInfo() {
    assertThat(ServerFacts.Product.fromBuildInfo(new Document("version", "7.0.42").append("ferretdbVersion", "v1.24.2")))
        .isEqualTo(new ServerFacts.Product("FerretDB", "1.24.2"));
    assertThat(ServerFacts.Product.fromBuildInfo(new Document("version", "8.0.4").append("allocator", "tcmalloc")
        .append("storageEngines", List.of("wiredTiger")))).isEqualTo(ServerFacts.Product.MONGODB);
    assertThat(ServerFacts.Product.fromBuildInfo(new Document("version", "4.2.0"))).isEqualTo(ServerFacts.Product.OTHER);
    assertThat(new ServerFacts.Product("FerretDB", "1.24.2").describe(ServerVersion.parse("7.0.42")))
        .isEqualTo("FerretDB 1.24.2 (not MongoDB; it answers as MongoDB 7.0.42)");
  }

  @Test
  void anUnreadableFeatureCompatibilityVersionIsAWarning() {
    ServerFacts mongo = new ServerFacts(ServerVersion.parse("7.0.12"), ServerFacts.Kind.STANDALONE, null, List.of(), null);
    Check version = MongoPreflight.version(mongo);
    assertThat(version.status()).isEqualTo(Preflight.Verdict.WARN);
    assertThat(version.detail()).startsWith("MongoDB 7.0.12, feature compatibility version unreadable");
    assertThat(MongoPreflight.version(new ServerFacts(ServerVersion.parse("7.0.12"), ServerFacts.Kind.STANDALONE, null,
        List.of(), ServerVersion.parse("7.0")))).isEqualTo(Check.ok("server version",
            "MongoDB 7.0.12, feature compatibility version 7.0"));
  }

  @Test
  void aShardKeyAgainstAStandaloneFails() throws Exception {
    List<Check> checks = preflight(new MongoGeoBinding(), geo(MongoSettings.SHARD_KEY, "_id:hashed"), Preflight.Before.LOAD);
    Check topology = named(checks, "topology");
    assertThat(topology.status()).isEqualTo(Preflight.Verdict.FAIL);
    assertThat(topology.detail()).isEqualTo("standalone, but mongodb.shardkey = _id:hashed needs a sharded cluster "
        + "(a mongos in mongodb.url)");
    assertThat(named(checks, "collection").detail()).startsWith("ycsb.restaurants is empty or absent: a load fills it (");
  }
}
