package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.bson.Document;
import org.geoshard.geo.contract.GeoContract;
import org.geoshard.geo.contract.Restaurant;
import org.geoshard.harness.api.DataRole;
import org.geoshard.harness.api.Preparable.Stage;
import org.geoshard.lastlocation.contract.LastLocationContract;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Preparation and topology of an unsharded server (mongo-java-server: it has no sharding commands and no
 * {@code $currentOp}, so the per-shard index timing is reported unavailable here; see the container
 * tests for a cluster). Idempotence: a stage run twice leaves the server as running it once.
 */
class PreparationTest {
  private InProcessMongo mongo;
  private MongoClient client;

  @BeforeEach
  void start() {
    mongo = new InProcessMongo();
    client = MongoClients.create(mongo.url("ycsb"));
  }

  @AfterEach
  void stop() {
    client.close();
    mongo.close();
  }

  private MongoCollection<Document> restaurants() {
    return client.getDatabase("ycsb").getCollection("restaurants");
  }

  private Map<String, Map<String, Object>> prepare(Stage stage, String... pairs) throws Exception {
    return prepare(stage, Set.of(GeoContract.RESTAURANTS), pairs);
  }

  private Map<String, Map<String, Object>> prepare(Stage stage, Set<DataRole> data, String... pairs) throws Exception {
    MongoGeoBinding db = new MongoGeoBinding();
    db.setProperties(mongo.properties(pairs));
    db.init();
    try {
      RecordingSteps steps = new RecordingSteps();
      db.prepare(stage, data, steps);
      return steps.steps;
    } finally {
      db.cleanup();
    }
  }

  private List<String> collections() {
    return client.getDatabase("ycsb").listCollectionNames().into(new ArrayList<>());
  }

  @Test
  void aKeyValueLoadPreparesItsTableAndNothingGeographic() throws Exception {
    Map<String, Map<String, Object>> before = prepare(Stage.BEFORE_LOAD, Set.of(DataRole.KEY_VALUE));
    assertThat(before.keySet()).containsExactly("create collection usertable");
    assertThat(before.get("create collection usertable")).containsEntry("namespace", "ycsb.usertable")
        .containsEntry("created", true);
    assertThat(prepare(Stage.AFTER_LOAD, Set.of(DataRole.KEY_VALUE))).as("no 2dsphere index").isEmpty();
    assertThat(collections()).containsExactly("usertable");
    assertThat(client.getDatabase("ycsb").getCollection("usertable").listIndexes().into(new ArrayList<>()))
        .extracting(i -> i.getString("name")).containsExactly("_id_");
  }

  @Test
  void aDropRemovesOnlyTheLoadedWorkloadsCollectionsAndCountsThem() throws Exception {
    for (int k = 0; k < 3; k++) {
      restaurants().insertOne(new Document("_id", (long) k));
    }
    client.getDatabase("ycsb").getCollection("usertable").insertOne(new Document("_id", "user1"));
    client.getDatabase("ycsb").getCollection("history").insertOne(new Document("UserId", "u1"));

    Map<String, Map<String, Object>> kv = prepare(Stage.BEFORE_LOAD, Set.of(DataRole.KEY_VALUE), "mongodb.drop", "true");
    assertThat(kv.get("drop collection usertable")).containsEntry("existed", true).containsEntry("documents", 1L);
    assertThat(restaurants().countDocuments()).isEqualTo(3);

    Map<String, Map<String, Object>> ll = prepare(Stage.BEFORE_LOAD,
        Set.of(LastLocationContract.HISTORY, LastLocationContract.LAST_KNOWN), "mongodb.drop", "true");
    assertThat(ll.get("drop last-location collections")).containsEntry("dropped", Map.of("history", 1L));
    assertThat(restaurants().countDocuments()).as("the geo collection after a last-location drop").isEqualTo(3);
    assertThat(collections()).contains("restaurants", "usertable");

    Map<String, Map<String, Object>> geo = prepare(Stage.BEFORE_LOAD, "mongodb.drop", "true");
    assertThat(geo.get("drop collection")).containsEntry("existed", true).containsEntry("documents", 3L);
    assertThat(restaurants().countDocuments()).isZero();
    assertThat(client.getDatabase("ycsb").getCollection("usertable").countDocuments()).isZero();
    assertThat(collections()).contains("usertable", "history", "restaurants");
  }

  private List<String> indexNames() {
    List<String> names = new ArrayList<>();
    restaurants().listIndexes().forEach(i -> names.add(i.getString("name")));
    return names;
  }

  @Test
  void beforeTheLoadCreatesTheCollectionOnce() throws Exception {
    Map<String, Map<String, Object>> first = prepare(Stage.BEFORE_LOAD);
    assertThat(first.keySet()).containsExactly("create collection");
    assertThat(first.get("create collection")).containsEntry("created", true).containsEntry("namespace", "ycsb.restaurants")
        .containsEntry("server", "4.2.0 standalone");
    assertThat(prepare(Stage.BEFORE_LOAD).get("create collection")).containsEntry("created", false);
    assertThat(client.getDatabase("ycsb").listCollectionNames().into(new ArrayList<>())).containsExactly("restaurants");
    assertThat(prepare(Stage.BEFORE_LOAD, "mongodb.index.when", "after").keySet()).containsExactly("create collection");
  }

  @Test
  void dropStartsAfresh() throws Exception {
    restaurants().insertOne(new Document("_id", 1L));
    Map<String, Map<String, Object>> steps = prepare(Stage.BEFORE_LOAD, "mongodb.drop", "true");
    assertThat(steps.keySet()).containsExactly("drop collection", "create collection");
    assertThat(steps.get("drop collection")).containsEntry("existed", true);
    assertThat(restaurants().countDocuments()).isZero();
    assertThat(prepare(Stage.BEFORE_LOAD, "mongodb.drop", "true").get("drop collection")).containsEntry("existed", true);
  }

  @Test
  void theIndexBeforeOrAfterTheLoadIsBuiltOnce() throws Exception {
    Map<String, Map<String, Object>> before = prepare(Stage.BEFORE_LOAD, "mongodb.index.when", "before");
    assertThat(before.keySet()).containsExactly("create collection", "2dsphere index");
    assertThat(before.get("2dsphere index")).containsEntry("alreadyExisted", false);
    assertThat(prepare(Stage.AFTER_LOAD, "mongodb.index.when", "before")).as("nothing left to do").isEmpty();
    assertThat(prepare(Stage.BEFORE_LOAD, "mongodb.index.when", "before").get("2dsphere index"))
        .containsEntry("alreadyExisted", true);
    assertThat(indexNames()).contains("location_2dsphere");
  }

  @Test
  void afterTheLoadTheIndexBuildIsTimed() throws Exception {
    prepare(Stage.BEFORE_LOAD);
    for (int k = 0; k < 50; k++) {
      restaurants().insertOne(RestaurantDocuments.toDocument(new Restaurant(k, "n", "c", "Polish", 2000, 1, 1, "$", false,
          k * 0.01, 45)));
    }
    Map<String, Object> index = prepare(Stage.AFTER_LOAD).get("2dsphere index");
    assertThat(index).containsEntry("alreadyExisted", false).containsEntry("documents", 50L).containsKey("buildMs");
    @SuppressWarnings("unchecked")
    Map<String, Object> perShard = (Map<String, Object>) index.get("perShard");
    assertThat(perShard.get("method").toString()).startsWith("$currentOp sampled every 250 ms");
    assertThat(perShard).as("mongo-java-server has no $currentOp: said, not faked").containsKey("unavailable");
    assertThat(indexNames()).contains("location_2dsphere");
    assertThat(prepare(Stage.AFTER_LOAD).get("2dsphere index")).containsEntry("alreadyExisted", true);
  }

  @Test
  void topologyOfAStandaloneServer() throws Exception {
    prepare(Stage.BEFORE_LOAD);
    restaurants().insertOne(new Document("_id", 1L));
    MongoGeoBinding db = new MongoGeoBinding();
    db.setProperties(mongo.properties());
    db.init();
    Map<String, Object> topology;
    try {
      topology = db.topology();
    } finally {
      db.cleanup();
    }
    assertThat(topology).containsEntry("serverVersion", "4.2.0").containsEntry("deployment", "standalone")
        .containsEntry("namespace", "ycsb.restaurants").containsEntry("documents", 1L)
        .doesNotContainKeys("shards", "balancer");
    assertThat(topology.get("indexes")).isEqualTo(List.of("_id_"));
    assertThat(topology.get("driverCommands").toString()).contains("buildInfo @ 127.0.0.1:");
  }

  @Test
  void theTopologyDescribesTheCollectionOfTheDataTheWorkloadDeclares() throws Exception {
    prepare(Stage.BEFORE_LOAD, Set.of(DataRole.KEY_VALUE));
    client.getDatabase("ycsb").getCollection("usertable").insertMany(List.of(new Document("_id", "user1"),
        new Document("_id", "user2")));
    MongoGeoBinding db = new MongoGeoBinding();
    db.setProperties(mongo.properties());
    db.init();
    try {
      assertThat(db.topology(Set.of(DataRole.KEY_VALUE))).containsEntry("namespace", "ycsb.usertable")
          .containsEntry("documents", 2L);
      assertThat(db.topology()).as("preflight's: the restaurants").containsEntry("namespace", "ycsb.restaurants");
    } finally {
      db.cleanup();
    }
  }
}
