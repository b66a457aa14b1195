package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.Runner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.mongodb.MongoDBContainer;

/**
 * The server sampler against real MongoDB: a standalone's serverStatus gives every metric the probe
 * keeps (operation counters rising with the load, tickets, WiredTiger cache, connections, network);
 * on a sharded cluster the sampler finds the mongos, both shards' primaries and the config server
 * from the topology. The shards and the config server are reached by their Docker network names,
 * which this JVM cannot resolve: their readings fail, which the run must survive (logged once, counted
 * in run.json), while the mongos is read throughout. Skipped where no Docker engine runs.
 */
@Testcontainers(disabledWithoutDocker = true)
class ObserveContainerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir
  Path dir;

  private List<String[]> load(Properties p, String folder) throws Exception {
    p.setProperty("observe.interval", "0.5");
    p.setProperty("status.interval", "0");
    p.setProperty("threadcount", "2");
    p.setProperty("results.dir", dir.resolve(folder).toString());
    new Runner(RunSettings.fromProperties(Phase.LOAD, p, "geo"), p, new Binding("mongodb-geo", MongoGeoBinding.class),
        dir).execute();
    return Files.readAllLines(dir.resolve(folder).resolve("servers.csv")).stream().skip(1).map(l -> l.split(","))
        .toList();
  }

  private static List<Double> values(List<String[]> rows, String role, String metric) {
    return rows.stream().filter(r -> r[2].equals(role) && r[3].equals(metric)).map(r -> Double.parseDouble(r[4]))
        .toList();
  }

  @Test
  void aStandalonesServerStatusGivesEveryMetricAndTheInsertsShow() throws Exception {
    try (MongoDBContainer mongo = new MongoDBContainer(MongoImages.image("mongo:7.0"))) {
      mongo.start();
      List<String[]> rows = load(StandaloneNearContainerTest.geoProperties(dir, mongo.getReplicaSetUrl("ycsb")), "standalone");
      assertThat(rows).extracting(r -> r[3]).contains("mongodb_opcounters_total.insert", "mongodb_active.readers",
          "mongodb_queued.writers", "mongodb_tickets_in_use.read", "mongodb_cache_bytes", "mongodb_cache_dirty_bytes",
          "mongodb_cache_evicted_pages_total.modified", "mongodb_connections.current", "mongodb_network_bytes_in_total");
      List<Double> inserts = values(rows, "mongod", "mongodb_opcounters_total.insert");
      assertThat(inserts).hasSizeGreaterThanOrEqualTo(2).isSorted();
      assertThat(inserts.get(inserts.size() - 1)).as("insertMany counts each document").isGreaterThan(inserts.get(0));
      assertThat(values(rows, "mongod", "mongodb_cache_bytes")).allMatch(v -> v > 0);
    }
  }

  @Test
  void onAShardedClusterTheRoutersShardsAndConfigServerAreFoundAndTheRunSurvivesUnreachableOnes() throws Exception {
    try (ThrowawayCluster cluster = ThrowawayCluster.start(2, MongoImages.image("mongo:7.0"), false)) {
      Properties p = StandaloneNearContainerTest.geoProperties(dir, cluster.url("ycsb"));
      p.setProperty("mongodb.shardkey", "Name:hashed");
      List<String[]> rows = load(p, "sharded");
      List<Double> inserts = values(rows, "mongos", "mongodb_opcounters_total.insert");
      assertThat(inserts).hasSizeGreaterThanOrEqualTo(2).isSorted();
      assertThat(inserts.get(inserts.size() - 1)).isGreaterThan(inserts.get(0));
      JsonNode run = JSON.readTree(dir.resolve("sharded/run.json").toFile());
      assertThat(run.get("status").asText()).isEqualTo("finished");
      JsonNode nodes = run.get("observe").get("nodes");
      assertThat(nodes.findValuesAsText("role")).containsExactlyInAnyOrder("mongos", "shard-primary", "shard-primary",
          "config");
      assertThat(nodes.findValuesAsText("node")).contains("rs0", "rs1", "config");
      for (JsonNode node : nodes) {
        assertThat(node.get("requests").asLong()).as("every node is asked every interval").isGreaterThanOrEqualTo(2);
      }
    }
  }
}
