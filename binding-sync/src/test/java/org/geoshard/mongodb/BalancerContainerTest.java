package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.bson.Document;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.output.RunResult;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.Runner;
import org.geoshard.harness.measure.StopReason;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * {@code mongodb.balancer} on a real 2-shard cluster: {@code pause} stops the balancer for the load and
 * the run and starts it again after them, also after Ctrl-C; {@code leave} leaves it on; either way
 * run.json says, per stage, the balancer's state and the migrations committed. The commands
 * (balancerStatus, balancerStop, balancerStart) and the changelog entry are the same from 4.4 to 8.0:
 * no version is expected to differ. Skipped where no Docker engine runs.
 */
@Testcontainers(disabledWithoutDocker = true)
class BalancerContainerTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  static List<String> images() {
    return MongoImages.images("mongo:8.0");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("images")
  void pausedForTheMeasuredPhasesAndStartedAgainAfterThemAlsoAfterCtrlC(String image) throws Exception {
    try (ThrowawayCluster cluster = ThrowawayCluster.start(2, image, false);
         MongoClient client = MongoClients.create(cluster.url("ycsb"))) {
      Properties p = StandaloneNearContainerTest.geoProperties(dir, cluster.url("ycsb"));
      p.setProperty("mongodb.shardkey", "Name:hashed");
      p.setProperty("mongodb.balancer", "pause");
      p.setProperty("threadcount", "2");
      p.setProperty("status.interval", "0");
      p.setProperty("results.dir", dir.resolve("load").toString());
      assertThat(mode(client)).isEqualTo("full");

      RunResult load = new Runner(RunSettings.fromProperties(Phase.LOAD, p, "geo"), p,
          new Binding("mongodb-geo", MongoGeoBinding.class), dir).execute();
      assertThat(load.hasFailures()).isFalse();
      JsonNode migrations = JSON.readTree(load.folder().resolve("run.json").toFile()).get("migrations");
      assertThat(migrations.at("/load/balancer").asText()).isEqualTo("paused (was full)");
      assertThat(migrations.at("/load/committed").asInt()).isZero();
      assertThat(migrations.has("after-load")).isTrue();
      assertThat(mode(client)).as("started again after the load").isEqualTo("full");

      p.setProperty("mongodb.drop", "false");
      p.setProperty("maxexecutiontime", "600");
      p.setProperty("results.dir", dir.resolve("run").toString());
      Runner run = new Runner(RunSettings.fromProperties(Phase.RUN, p, "geo"), p,
          new Binding("mongodb-geo", MongoGeoBinding.class), dir);
      CompletableFuture<RunResult> running = CompletableFuture.supplyAsync(() -> {
        try {
          return run.execute();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!"off".equals(mode(client)) && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      assertThat(mode(client)).as("paused during the run").isEqualTo("off");
      run.stop(StopReason.INTERRUPTED);
      RunResult interrupted = running.get(120, TimeUnit.SECONDS);
      assertThat(interrupted.stopReason()).isEqualTo(StopReason.INTERRUPTED);
      assertThat(mode(client)).as("started again after Ctrl-C").isEqualTo("full");

      p.setProperty("mongodb.balancer", "leave");
      p.setProperty("maxexecutiontime", "2");
      p.setProperty("results.dir", dir.resolve("leave").toString());
      RunResult left = new Runner(RunSettings.fromProperties(Phase.RUN, p, "geo"), p,
          new Binding("mongodb-geo", MongoGeoBinding.class), dir).execute();
      JsonNode run2 = JSON.readTree(left.folder().resolve("run.json").toFile()).get("migrations");
      assertThat(run2.at("/run/balancer").asText()).isEqualTo("left as it was (mode full)");
      assertThat(run2.at("/run/committed").isInt()).isTrue();
    }
  }

  private static String mode(MongoClient client) {
    return client.getDatabase("admin").runCommand(new Document("balancerStatus", 1)).getString("mode");
  }
}
