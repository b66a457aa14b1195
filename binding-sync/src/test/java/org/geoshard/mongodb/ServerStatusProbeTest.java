package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.bson.Document;
import org.geoshard.harness.api.ServerProbe;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.Runner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.workloads.CoreWorkload;

/**
 * The MongoDB probes: what is kept of a serverStatus answer, and sampling the in-process wire server
 * (mongo-java-server) as far as it answers serverStatus (connections and the like, no opcounters or
 * WiredTiger). The real servers' answers are sampled in {@link ObserveContainerTest}.
 */
class ServerStatusProbeTest {
  @TempDir
  Path dir;

  /** The parts of a MongoDB 7.0 serverStatus answer the probe reads, in their real shape. */
  static Document status70() {
    return Document.parse("""
        {host: "shard01-a:27018", version: "7.0.14", process: "mongod",
         opcounters: {insert: 1200, query: 340, update: 5, delete: 0, getmore: 12, command: 980},
         globalLock: {currentQueue: {total: 3, readers: 2, writers: 1}, activeClients: {total: 9, readers: 6, writers: 3}},
         queues: {execution: {write: {out: 4, available: 124, totalTickets: 128},
                              read: {out: 7, available: 121, totalTickets: 128}}},
         wiredTiger: {cache: {"bytes currently in the cache": 1.5e9, "tracked dirty bytes in the cache": NumberLong(2048),
                              "maximum bytes configured": 4.0e9, "modified pages evicted": 10,
                              "unmodified pages evicted": 250, "pages read into cache": 9000},
                      concurrentTransactions: {write: {out: 99}, read: {out: 99}}},
         connections: {current: 42, available: 800, totalCreated: NumberLong(77)},
         network: {bytesIn: NumberLong(123456), bytesOut: NumberLong(654321), numRequests: NumberLong(1000)},
         ok: 1}""");
  }

  @Test
  void keepsCountersQueuesTicketsCacheConnectionsAndNetwork() {
    Map<String, Double> m = ServerStatusProbe.metrics(status70());
    assertThat(m).containsEntry("mongodb_opcounters_total.insert", 1200.0)
        .containsEntry("mongodb_opcounters_total.query", 340.0)
        .containsEntry("mongodb_active.readers", 6.0).containsEntry("mongodb_queued.writers", 1.0)
        .containsEntry("mongodb_tickets_in_use.read", 7.0).containsEntry("mongodb_tickets_in_use.write", 4.0)
        .containsEntry("mongodb_cache_bytes", 1.5e9).containsEntry("mongodb_cache_dirty_bytes", 2048.0)
        .containsEntry("mongodb_cache_evicted_pages_total.unmodified", 250.0)
        .containsEntry("mongodb_connections.current", 42.0)
        .containsEntry("mongodb_network_bytes_out_total", 654321.0);
  }

  @Test
  void takesTheTicketsFromWiredTigerOnServersBefore70() {
    Document status = status70();
    status.remove("queues");
    assertThat(ServerStatusProbe.metrics(status)).containsEntry("mongodb_tickets_in_use.read", 99.0);
  }

  @Test
  void readsAShardsOrConfigServersMembersAsListShardsGivesThem() {
    assertThat(ObservedNodes.Members.parse("rs0/a:27018,b:27018"))
        .isEqualTo(new ObservedNodes.Members("rs0", List.of("a:27018", "b:27018")));
    assertThat(ObservedNodes.Members.parse("solo:27018")).isEqualTo(new ObservedNodes.Members(null, List.of("solo:27018")));
  }

  @Test
  void theWireServersServerStatusIsSampledOnAClientOfTheProbesOwn() throws Exception {
    try (InProcessMongo mongo = new InProcessMongo()) {
      MongoGeoBinding binding = new MongoGeoBinding();
      binding.setProperties(mongo.properties());
      binding.init();
      List<ServerProbe> probes;
      try {
        probes = binding.serverProbes();
      } finally {
        binding.cleanup();
      }
      assertThat(probes).hasSize(1);
      try (ServerProbe probe = probes.get(0)) {
        assertThat(probe.node()).isEqualTo("127.0.0.1:" + mongo.port());
        assertThat(probe.role()).isEqualTo("mongod");
        Map<String, Double> first = probe.sample();
        assertThat(first).as("mongo-java-server answers serverStatus with its connections").containsKey(
            "mongodb_connections.current");
        assertThat(first.get("mongodb_connections.current")).isPositive();
      }
    }
  }

  @Test
  void aServerThatStopsFailsItsReadingsWithoutTakingTheProbeDown() throws Exception {
    InProcessMongo mongo = new InProcessMongo();
    int port = mongo.port();
    MongoGeoBinding binding = new MongoGeoBinding();
    binding.setProperties(mongo.properties());
    binding.init();
    ServerProbe probe;
    try {
      probe = binding.serverProbes().get(0);
    } finally {
      binding.cleanup();
    }
    try (probe) {
      probe.sample();
      mongo.close();
      assertThatThrownBy(probe::sample).isInstanceOf(RuntimeException.class);
      try (InProcessMongo again = new InProcessMongo(port, false)) {
        assertThat(probe.sample()).containsKey("mongodb_connections.current");
      }
    }
  }

  @Test
  void aLoadWritesTheServersRowsOnThePhasesClock() throws Exception {
    try (InProcessMongo mongo = new InProcessMongo()) {
      Properties p = mongo.properties("workload", CoreWorkload.class.getName(), "recordcount", "200",
          "status.interval", "0", "observe.interval", "0.2", "results.dir", dir.resolve("load").toString());
      new Runner(RunSettings.fromProperties(Phase.LOAD, p, "x"), p, new Binding("mongodb-geo", MongoGeoBinding.class),
          dir).execute();
      List<String[]> rows = Files.readAllLines(dir.resolve("load/servers.csv")).stream().skip(1)
          .map(l -> l.split(",")).toList();
      List<Double> times = rows.stream().filter(r -> r[3].equals("mongodb_connections.current"))
          .map(r -> Double.parseDouble(r[0])).toList();
      assertThat(times).hasSizeGreaterThanOrEqualTo(2).isSorted().doesNotHaveDuplicates();
      assertThat(rows).allMatch(r -> r[1].equals("127.0.0.1:" + mongo.port()) && r[2].equals("mongod"));
      JsonNode node = new ObjectMapper().readTree(dir.resolve("load/run.json").toFile()).get("observe").get("nodes").get(0);
      assertThat(node.get("failures").asLong()).isZero();
    }
  }
}
