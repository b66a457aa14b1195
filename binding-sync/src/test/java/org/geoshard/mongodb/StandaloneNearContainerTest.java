package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.geoshard.geo.GeoSettings;
import org.geoshard.geo.GeoWorkload;
import org.geoshard.geo.contract.AttributeFilter;
import org.geoshard.geo.contract.GeoHit;
import org.geoshard.geo.contract.GeoQuery;
import org.geoshard.geo.dataset.RestaurantDataset;
import org.geoshard.harness.api.Preparable.Stage;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.mongodb.MongoDBContainer;
import site.ycsb.Status;

/**
 * Near queries answered by real MongoDB (pinned images) against the brute-force haversine oracle, on a
 * small generated dataset loaded and indexed through the binding: every query shape of the study.
 * Skipped where no Docker engine runs.
 */
@Testcontainers(disabledWithoutDocker = true)
class StandaloneNearContainerTest {
  static final int SESSIONS = 60;
  @TempDir
  Path dir;

  static Properties geoProperties(Path dir, String url) throws Exception {
    Properties p = new Properties();
    p.setProperty("mongodb.url", url);
    p.setProperty("mongodb.serverSelectionTimeout", "30");
    p.setProperty("mongodb.drop", "true");
    p.setProperty("workload", GeoWorkload.class.getName());
    p.setProperty("geo.cities", TestCities.write(dir).toString());
    p.setProperty("geo.scale", "0.05");
    p.setProperty("seed", "5");
    // The oracle measures on the workload's sphere: the server must select on it too (issue 18: drawn is the default).
    p.setProperty("mongodb.maxdistance", "scaled");
    return p;
  }

  /** Prepares, loads and indexes the dataset through one binding instance; returns it, initialised, for queries. */
  static MongoGeoBinding loaded(Properties p, RestaurantDataset dataset) throws Exception {
    MongoGeoBinding db = new MongoGeoBinding();
    db.setProperties(p);
    db.init();
    db.prepare(Stage.BEFORE_LOAD,
        java.util.Set.of(org.geoshard.geo.contract.GeoContract.RESTAURANTS), new RecordingSteps());
    for (long k = 0; k < dataset.size(); k++) {
      assertThat(db.insertRestaurant(dataset.restaurant(k))).isIn(Status.OK, Status.BATCHED_OK);
    }
    db.cleanup();  // flushes the last batch
    MongoGeoBinding queries = new MongoGeoBinding();
    queries.setProperties(p);
    queries.init();
    RecordingSteps after = new RecordingSteps();
    queries.prepare(Stage.AFTER_LOAD, java.util.Set.of(org.geoshard.geo.contract.GeoContract.RESTAURANTS), after);
    assertThat(after.steps).containsKey("2dsphere index");
    return queries;
  }

  /** Runs every shape of every session against {@code db} and checks each answer with the oracle. */
  static int checkAllShapes(MongoGeoBinding db, RestaurantDataset dataset, GeoSettings settings, NearOracle oracle,
      String label) {
    int checked = 0;
    int ambiguous = 0;
    List<GeoHit> hits = new ArrayList<>();
    for (GeoQuery basic : NearOracle.basics(dataset, settings, SESSIONS, 17)) {
      List<GeoQuery> shapes = new ArrayList<>(List.of(basic,
          basic.withFilter(new AttributeFilter.CuisineEquals("Polish")),
          basic.withFilter(new AttributeFilter.RatingGreaterThan(2)),
          basic.withFilter(new AttributeFilter.OutsideAreaEquals(true)),
          basic.withFilter(new AttributeFilter.PricingEquals("$$")),
          basic.withSkip(basic.limit())));
      assertThat(db.near(basic, hits)).isEqualTo(Status.OK);
      if (hits.size() == basic.limit()) {
        shapes.add(NearOracle.afterLastHit(basic, hits));
      }
      for (GeoQuery q : shapes) {
        if (oracle.ambiguous(q)) {
          ambiguous++;
          continue;
        }
        assertThat(db.near(q, hits)).as("%s %s", label, q).isEqualTo(Status.OK);
        oracle.assertAnswers(label + " " + q, q, hits);
        checked++;
      }
    }
    assertThat(ambiguous).as("queries skipped for a restaurant within 0.1 mm of a bound").isLessThan(checked / 20 + 1);
    return checked;
  }

  static List<String> images() {
    return MongoImages.images("mongo:7.0", "mongo:8.0");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("images")
  void nearQueriesMatchTheOracle(String image) throws Exception {
    try (MongoDBContainer mongo = new MongoDBContainer(image)) {
      mongo.start();
      Properties p = geoProperties(dir, mongo.getConnectionString() + "/ycsb?directConnection=true");
      GeoSettings settings = GeoSettings.fromProperties(p);
      RestaurantDataset dataset = GeoWorkload.datasetOf(settings);
      MongoGeoBinding db = loaded(p, dataset);
      try {
        int checked = checkAllShapes(db, dataset, settings, new NearOracle(dataset), image);
        assertThat(checked).isGreaterThan(SESSIONS * 5);
        assertThat(db.topology()).containsEntry("documents", dataset.size());
      } finally {
        db.cleanup();
      }
    }
  }
}
