package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Properties;
import org.bson.Document;
import org.geoshard.geo.GeoSettings;
import org.geoshard.geo.GeoWorkload;
import org.geoshard.geo.contract.Restaurant;
import org.geoshard.geo.dataset.RestaurantDataset;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.output.RunResult;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.Runner;
import org.geoshard.harness.run.StartFailedException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.Status;

/**
 * Batched geo loads through the real harness ({@link Runner}, {@link GeoWorkload}, three client threads)
 * into mongo-java-server: every restaurant arrives exactly once, the leftovers of each thread included.
 */
class GeoLoadTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir
  Path dir;
  private InProcessMongo mongo;
  private MongoClient client;
  private LeftOpen leftOpen;

  @BeforeEach
  void start() {
    leftOpen = LeftOpen.watch();
    mongo = new InProcessMongo();
    client = MongoClients.create(mongo.url("ycsb"));
  }

  @AfterEach
  void stop() {
    client.close();
    mongo.close();
    try {
      assertThat(leftOpen.closedAtPhaseEnd()).as("the last thread closed the shared client").isEmpty();
    } finally {
      leftOpen.close();
    }
  }

  private Properties geo(String... pairs) throws Exception {
    Properties p = mongo.properties(pairs);
    p.setProperty("workload", GeoWorkload.class.getName());
    p.setProperty("geo.cities", TestCities.write(dir).toString());
    p.setProperty("geo.scale", "0.03");
    p.setProperty("seed", "11");
    p.setProperty("status.interval", "0");
    p.setProperty("threadcount", "3");
    return p;
  }

  private RunResult load(Properties p, String folder) throws Exception {
    p.setProperty("results.dir", dir.resolve(folder).toString());
    return new Runner(RunSettings.fromProperties(Phase.LOAD, p, "geo"), p,
        new Binding("mongodb-geo", MongoGeoBinding.class), dir).execute();
  }

  private MongoCollection<Document> restaurants() {
    return client.getDatabase("ycsb").getCollection("restaurants");
  }

  @Test
  void threeThreadsLoadEveryRestaurantOnce() throws Exception {
    Properties p = geo();
    RestaurantDataset dataset = GeoWorkload.datasetOf(GeoSettings.fromProperties(p));
    long n = dataset.size();
    assertThat(n % 3).as("threads get unequal shares").isNotZero();
    assertThat((n / 3) % MongoSettings.DEFAULT_GEO_BATCH_SIZE).as("each thread has leftovers to flush").isNotZero();

    RunResult result = load(p, "load");

    assertThat(result.hasFailures()).isFalse();
    assertThat(result.perOperation().get("INSERT").count()).isEqualTo(n);
    assertThat(restaurants().countDocuments()).isEqualTo(n);
    List<Document> stored = restaurants().find().sort(new Document("_id", 1)).into(new ArrayList<>());
    for (int k = 0; k < n; k++) {
      assertThat(RestaurantDocuments.fromDocument(stored.get(k))).as("restaurant %d", k).isEqualTo(dataset.restaurant(k));
    }
    // Preparation and topology went into run.json: the collection was created before, the index built after.
    JsonNode run = JSON.readTree(result.folder().resolve("run.json").toFile());
    List<String> steps = new ArrayList<>();
    run.get("preparation").forEach(step -> steps.add(step.get("step").asText()));
    assertThat(steps).containsExactly("create collection", "2dsphere index");
    assertThat(run.at("/topology/deployment").asText()).isEqualTo("standalone");
    assertThat(run.at("/topology/documents").asLong()).isEqualTo(n);
    assertThat(run.at("/topology/indexes").toString()).contains("location_2dsphere");
  }

  @Test
  void aSplitLoadAddsUpAndALoadWithDropStartsAfresh() throws Exception {
    Properties first = geo("insertstart", "0", "insertcount", "500");
    assertThat(load(first, "first").hasFailures()).isFalse();
    Properties second = geo("insertstart", "500", "insertcount", "301");
    assertThat(load(second, "second").hasFailures()).isFalse();
    assertThat(restaurants().countDocuments()).isEqualTo(801);
    assertThat(restaurants().countDocuments(new Document("_id", new Document("$gte", 500L)))).isEqualTo(301);

    Properties again = geo("insertstart", "0", "insertcount", "10", "mongodb.drop", "true");
    assertThat(load(again, "again").hasFailures()).isFalse();
    assertThat(restaurants().countDocuments()).isEqualTo(10);
  }

  @Test
  void loadingTheSameRestaurantsTwiceIsRefusedBeforeTheStart() throws Exception {
    assertThat(load(geo("insertcount", "200", "batchsize", "50"), "once").hasFailures()).isFalse();
    assertThatThrownBy(() -> load(geo("insertcount", "200", "batchsize", "50"), "twice"))
        .isInstanceOf(StartFailedException.class)
        .hasMessageContaining("Collection ycsb.restaurants already holds 200 documents of this load's records 0 to 199: "
            + "set mongodb.drop=true to load it afresh");
    // A split load of other records goes on; one over records already there is refused, naming insertstart.
    assertThat(load(geo("insertstart", "200", "insertcount", "50"), "next").hasFailures()).isFalse();
    assertThatThrownBy(() -> load(geo("insertstart", "150", "insertcount", "100"), "overlap"))
        .hasMessageContaining("already holds 100 documents of this load's records 150 to 249")
        .hasMessageContaining("insertstart");
    assertThat(restaurants().countDocuments()).isEqualTo(250);
  }

  @Test
  void everyBufferedRecordIsCountedByTheOutcomeOfTheBatchThatCarriedIt() throws Exception {
    Properties p = geo("batchsize", "40");
    RestaurantDataset dataset = GeoWorkload.datasetOf(GeoSettings.fromProperties(p));
    for (int k = 0; k < 50; k++) {
      restaurants().insertOne(RestaurantDocuments.toDocument(dataset.restaurant(k)));
    }
    MongoGeoBinding db = new MongoGeoBinding();
    List<int[]> settled = new ArrayList<>();
    db.batchOutcomeListener((operation, ok, failed) -> {
      assertThat(operation).isEqualTo("INSERT");
      settled.add(new int[] {ok, failed});
    });
    db.setProperties(p);
    db.init();
    List<Status> statuses = new ArrayList<>();
    for (int k = 0; k < 100; k++) {
      statuses.add(db.insertRestaurant(dataset.restaurant(k)));
    }
    db.cleanup();
    // Records 0..49 existed: the unordered insertMany names exactly those as failed.
    assertThat(statuses.get(39)).as("the call that wrote batch 0..39 carries record 39, a duplicate").isEqualTo(Status.ERROR);
    assertThat(statuses.get(79)).as("record 79 was written").isEqualTo(Status.OK);
    assertThat(settled).extracting(a -> a[0] + "/" + a[1]).containsExactly("0/39", "29/10", "20/0");
    long ok = settled.stream().mapToLong(a -> a[0]).sum() + statuses.stream().filter(s -> s == Status.OK).count();
    assertThat(ok).as("OK records equal documents written").isEqualTo(restaurants().countDocuments() - 50);
  }

  @Test
  void oneThreadBuffersUpToTheBatchSizeAndFlushesTheRestAtCleanup() throws Exception {
    Properties p = geo("batchsize", "40");
    RestaurantDataset dataset = GeoWorkload.datasetOf(GeoSettings.fromProperties(p));
    MongoGeoBinding db = new MongoGeoBinding();
    db.setProperties(p);
    db.init();
    List<Status> statuses = new ArrayList<>();
    for (int k = 0; k < 100; k++) {
      statuses.add(db.insertRestaurant(dataset.restaurant(k)));
    }
    assertThat(statuses.stream().filter(s -> s == Status.OK).count()).as("two full batches").isEqualTo(2);
    assertThat(statuses.get(39)).isEqualTo(Status.OK);
    assertThat(statuses.get(79)).isEqualTo(Status.OK);
    assertThat(statuses.get(99)).isEqualTo(Status.BATCHED_OK);
    assertThat(restaurants().countDocuments()).isEqualTo(80);
    db.cleanup();
    assertThat(restaurants().countDocuments()).isEqualTo(100);
    HashMap<Long, Restaurant> byId = new HashMap<>();
    restaurants().find().forEach(d -> byId.put(((Number) d.get("_id")).longValue(), RestaurantDocuments.fromDocument(d)));
    assertThat(byId.get(99L)).isEqualTo(dataset.restaurant(99));
  }
}
