package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.Properties;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.output.RunResult;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.Runner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * The study's explanation measured: on a 3-shard cluster whose restaurants are sharded by a hashed
 * key (the study's {@code Name:hashed}), the explained near queries of a run went to every shard, and
 * a read by {@code _id} of YCSB's table went to one. Skipped where no Docker engine runs.
 */
@Testcontainers(disabledWithoutDocker = true)
class QueryTargetingContainerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir
  Path dir;

  @Test
  void aHashedShardKeySendsEveryNearQueryToEveryShard() throws Exception {
    String image = MongoImages.image("mongo:8.0");
    try (ThrowawayCluster cluster = ThrowawayCluster.start(3, image, false)) {
      Properties p = StandaloneNearContainerTest.geoProperties(dir, cluster.url("ycsb"));
      p.setProperty("mongodb.shardkey", "Name:hashed");
      p.setProperty("threadcount", "2");
      p.setProperty("status.interval", "0");
      p.setProperty("results.dir", dir.resolve("load").toString());
      RunResult load = new Runner(RunSettings.fromProperties(Phase.LOAD, p, "geo"), p,
          new Binding("mongodb-geo", MongoGeoBinding.class), dir).execute();
      assertThat(load.hasFailures()).isFalse();

      Properties run = new Properties();
      run.putAll(p);
      run.setProperty("mongodb.drop", "false");
      run.setProperty("operationcount", "400");
      run.setProperty("observe.explain.samples", "5");
      run.setProperty("results.dir", dir.resolve("run").toString());
      RunResult result = new Runner(RunSettings.fromProperties(Phase.RUN, run, "geo"), run,
          new Binding("mongodb-geo", MongoGeoBinding.class), dir).execute();
      assertThat(result.errors()).isZero();

      JsonNode targeting = JSON.readTree(result.folder().resolve("run.json").toFile()).path("queryTargeting");
      JsonNode near = targeting.path("operations").path("GEO_NEAR");
      assertThat(near.path("samples").asInt()).as("explained GEO_NEAR requests: %s", targeting).isPositive();
      assertThat(near.path("targetsMin").asInt()).as("every near query on every shard: %s", near).isEqualTo(3);
      assertThat(near.path("targetsPerQuery").asDouble()).isEqualTo(3.0);
      assertThat(near.path("targetCounts").size()).isEqualTo(3);
      assertThat(near.path("examinedPerReturned").asDouble()).isGreaterThanOrEqualTo(1.0);
      assertThat(targeting.path("failures").asInt()).isZero();
    }
  }
}
