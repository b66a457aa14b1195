package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import java.util.List;
import org.bson.Document;
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
    db.setProperties(p);
    db.init();
    try {
      return db.preflight();
    } finally {
      db.cleanup();
    }
  }

  public static Check named(List<Check> checks, String name) {
    return checks.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow(() -> new AssertionError(name + " in " + checks));
  }

  @Test
  void aStandaloneWithItsCollectionPasses() throws Exception {
    try (MongoClient client = MongoClients.create(mongo.url("ycsb"))) {
      for (int i = 0; i < 12; i++) {
        client.getDatabase("ycsb").getCollection("restaurants").insertOne(new Document("_id", i));
      }
    }
    List<Check> checks = preflight(new MongoGeoBinding(), mongo.properties());
    assertThat(checks).extracting(Check::name)
        .containsExactly("nodes reached", "server version", "topology", "collection", "index build progress", "indexes",
            "clock skew");
    assertThat(checks).noneMatch(c -> c.status() == Preflight.Verdict.FAIL);
    assertThat(named(checks, "server version").detail()).startsWith("4.2.0");
    assertThat(named(checks, "topology").detail()).isEqualTo("standalone");
    assertThat(named(checks, "collection").detail()).isEqualTo("ycsb.restaurants holds 12 documents");
    assertThat(named(checks, "indexes").detail()).contains("_id_");
    // One machine, one clock: the skew is within a second (the warning's threshold).
    Check skew = named(checks, "clock skew");
    assertThat(skew.status()).isEqualTo(Preflight.Verdict.OK);
    assertThat(skew.detail()).matches("server clock [+-]\\d+ ms against this client \\(round trip \\d+ ms\\)");
  }

  @Test
  void aShardKeyAgainstAStandaloneFails() throws Exception {
    List<Check> checks = preflight(new MongoGeoBinding(), mongo.properties(MongoSettings.SHARD_KEY, "_id:hashed"));
    Check topology = named(checks, "topology");
    assertThat(topology.status()).isEqualTo(Preflight.Verdict.FAIL);
    assertThat(topology.detail()).isEqualTo("standalone, but mongodb.shardkey = _id:hashed needs a sharded cluster "
        + "(a mongos in mongodb.url)");
    assertThat(named(checks, "collection").detail()).isEqualTo("ycsb.restaurants is empty or absent: a load fills it");
  }
}
