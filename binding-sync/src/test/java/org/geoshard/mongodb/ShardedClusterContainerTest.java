package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.geoshard.geo.GeoSettings;
import org.geoshard.geo.GeoWorkload;
import org.geoshard.geo.contract.AttributeFilter;
import org.geoshard.geo.contract.GeoHit;
import org.geoshard.geo.contract.GeoQuery;
import org.geoshard.geo.dataset.RestaurantDataset;
import org.geoshard.harness.api.Preparable.Stage;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.output.RunResult;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.Runner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.mongodb.MongoDBContainer;
import site.ycsb.Status;

/**
 * A sharded cluster from containers on one network (config server replica set, shard replica sets,
 * one mongos), prepared through the binding, loaded through the harness with three threads, queried,
 * and checked: the documents per shard add up, and every answer equals the standalone server's and the
 * oracle's. Skipped where no Docker engine runs.
 */
@Testcontainers(disabledWithoutDocker = true)
class ShardedClusterContainerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir
  Path dir;

  static Stream<Arguments> clusters() {
    String chosen = System.getProperty(MongoImages.PROPERTY);
    if (chosen != null && !chosen.isBlank()) {
      // One image per CI job: both cluster sizes and both kinds of key on it.
      return Stream.of(Arguments.of(chosen, 2, "Name:hashed"), Arguments.of(chosen, 3, "Name:hashed"),
          Arguments.of(chosen, 2, "City:1,_id:1"), Arguments.of(chosen, 2, "City:1,_id:hashed"));
    }
    return Stream.of(
        Arguments.of("mongo:7.0", 2, "Name:hashed"),
        Arguments.of("mongo:8.0", 3, "Name:hashed"),
        Arguments.of("mongo:8.0", 2, "City:1,_id:1"));
  }

  @ParameterizedTest(name = "{0}, {1} shards, {2}")
  @MethodSource("clusters")
  void preparedLoadedAndQueriedLikeAStandalone(String image, int shards, String key) throws Exception {
    try (ThrowawayCluster cluster = ThrowawayCluster.start(shards, image, false);
         MongoDBContainer standalone = new MongoDBContainer(image)) {
      standalone.start();
      Properties p = StandaloneNearContainerTest.geoProperties(dir, cluster.url("ycsb"));
      p.setProperty("mongodb.shardkey", key);
      p.setProperty("mongodb.index.pollms", "10");
      p.setProperty("threadcount", "3");
      p.setProperty("status.interval", "0");
      p.setProperty("results.dir", dir.resolve("load").toString());
      GeoSettings settings = GeoSettings.fromProperties(p);
      RestaurantDataset dataset = GeoWorkload.datasetOf(settings);
      long n = dataset.size();

      RunResult load = new Runner(RunSettings.fromProperties(Phase.LOAD, p, "geo"), p,
          new Binding("mongodb-geo", MongoGeoBinding.class), dir).execute();
      assertThat(load.hasFailures()).isFalse();
      assertThat(load.perOperation().get("INSERT").count()).isEqualTo(n);

      JsonNode run = JSON.readTree(load.folder().resolve("run.json").toFile());
      List<String> steps = new ArrayList<>();
      run.get("preparation").forEach(step -> steps.add(step.get("step").asText()));
      assertThat(steps).containsExactly("drop collection", "create collection", "shard collection", "2dsphere index");
      JsonNode shardStep = run.get("preparation").get(2);
      assertThat(shardStep.toString()).contains("\"alreadySharded\":false");
      if (ShardKey.of(key).hashedPrefix()) {
        // Decided by the version: 2 chunks per shard before 7.2, one per shard from 7.2 (fresh clusters: FCV = binary).
        assertThat(shardStep.toString()).contains(MongoImages.version(image).atLeast(7, 2) ? "one chunk per shard"
            : "2 chunks per shard");
      } else if (ShardKey.of(key).hashed()) {
        assertThat(shardStep.toString()).contains("none: a compound key whose first field is ranged");
      }
      JsonNode indexStep = run.get("preparation").get(3);
      long buildMs = indexStep.toString().contains("\"buildMs\"") ? findLong(indexStep, "buildMs") : -1;
      assertThat(buildMs).isNotNegative();
      JsonNode perShard = find(indexStep, "perShard");
      assertThat(perShard.get("method").asText()).startsWith("$currentOp sampled every 10 ms");
      perShard.get("shards").properties().forEach(e -> {
        assertThat(e.getKey()).matches("rs\\d");
        assertThat(e.getValue().get("atLeastMs").asLong()).isLessThanOrEqualTo(buildMs);
      });

      JsonNode topology = run.get("topology");
      assertThat(topology.get("deployment").asText()).isEqualTo("sharded");
      assertThat(topology.get("serverVersion").asText()).startsWith(image.substring("mongo:".length()));
      assertThat(topology.get("shards")).hasSize(shards);
      long sum = 0;
      for (JsonNode shard : topology.get("shards")) {
        assertThat(shard.get("host").asText()).startsWith(shard.get("name").asText() + "/");
        sum += shard.get("documents").asLong();
        if (ShardKey.of(key).hashedPrefix()) {
          assertThat(shard.get("chunks").asLong()).as("presplit: chunks on %s", shard.get("name")).isPositive();
          assertThat(shard.get("documents").asLong()).as("hashed keys spread the documents").isPositive();
        }
      }
      assertThat(sum).as("documents per shard add up").isEqualTo(n);
      assertThat(topology.get("documents").asLong()).isEqualTo(n);
      assertThat(topology.get("balancer").get("mode").asText()).isNotEmpty();

      // Preparing again changes nothing.
      MongoGeoBinding again = new MongoGeoBinding();
      Properties noDrop = new Properties();
      noDrop.putAll(p);
      noDrop.setProperty("mongodb.drop", "false");
      noDrop.remove("dotransactions");  // a preparation of its own (bin/ycsb prepare), not a load
      again.setProperties(noDrop);
      again.init();
      RecordingSteps before = new RecordingSteps();
      RecordingSteps after = new RecordingSteps();
      try {
        again.prepare(Stage.BEFORE_LOAD, java.util.Set.of(org.geoshard.geo.contract.GeoContract.RESTAURANTS), before);
        again.prepare(Stage.AFTER_LOAD, java.util.Set.of(org.geoshard.geo.contract.GeoContract.RESTAURANTS), after);
      } finally {
        again.cleanup();
      }
      assertThat(before.steps.get("create collection")).containsEntry("created", false);
      assertThat(before.steps.get("shard collection")).containsEntry("alreadySharded", true);
      assertThat(after.steps.get("2dsphere index")).containsEntry("alreadyExisted", true);

      // Queries: the cluster answers as the standalone server and as the oracle.
      MongoGeoBinding reference = StandaloneNearContainerTest.loaded(
          StandaloneNearContainerTest.geoProperties(dir, standalone.getConnectionString() + "/ycsb?directConnection=true"), dataset);
      MongoGeoBinding clustered = new MongoGeoBinding();
      clustered.setProperties(noDrop);
      clustered.init();
      NearOracle oracle = new NearOracle(dataset);
      int compared = 0;
      try {
        List<GeoHit> expected = new ArrayList<>();
        List<GeoHit> actual = new ArrayList<>();
        for (GeoQuery basic : NearOracle.basics(dataset, settings, 40, 23)) {
          List<GeoQuery> shapes = new ArrayList<>(List.of(basic,
              basic.withFilter(new AttributeFilter.CuisineEquals("Italian")),
              basic.withFilter(new AttributeFilter.RatingGreaterThan(3)),
              basic.withFilter(new AttributeFilter.OutsideAreaEquals(false)),
              basic.withFilter(new AttributeFilter.PricingEquals("$")),
              basic.withSkip(basic.limit())));
          assertThat(reference.near(basic, expected)).isEqualTo(Status.OK);
          if (expected.size() == basic.limit()) {
            shapes.add(NearOracle.afterLastHit(basic, expected));
          }
          for (GeoQuery q : shapes) {
            if (oracle.ambiguous(q)) {
              continue;
            }
            assertThat(reference.near(q, expected)).isEqualTo(Status.OK);
            assertThat(clustered.near(q, actual)).isEqualTo(Status.OK);
            assertThat(actual.stream().map(GeoHit::distanceMeters).toList()).as("%s", q)
                .isEqualTo(expected.stream().map(GeoHit::distanceMeters).toList());
            oracle.assertAnswers("sharded " + q, q, actual);
            compared++;
          }
        }
      } finally {
        reference.cleanup();
        clustered.cleanup();
      }
      assertThat(compared).isGreaterThan(100);
    }
  }

  @Test
  void theTestcontainersUrlStartsAThrowawayCluster() throws Exception {
    Properties p = new Properties();
    p.setProperty("mongodb.url", "testcontainers:2s");
    p.setProperty("mongodb.serverSelectionTimeout", "30");
    MongoGeoBinding db = new MongoGeoBinding();
    db.setProperties(p);
    db.init();
    try {
      Map<String, Object> topology = db.topology();
      assertThat(topology).containsEntry("deployment", "sharded").containsEntry("url", "testcontainers:2s");
      assertThat((List<?>) topology.get("shards")).hasSize(2);
      assertThat(topology.get("serverVersion").toString()).startsWith("8.0");
    } finally {
      db.cleanup();
    }
  }

  private static JsonNode find(JsonNode node, String field) {
    JsonNode found = node.findValue(field);
    assertThat(found).as(field).isNotNull();
    return found;
  }

  private static long findLong(JsonNode node, String field) {
    return find(node, field).asLong();
  }
}
