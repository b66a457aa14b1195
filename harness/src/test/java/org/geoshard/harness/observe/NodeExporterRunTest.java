package org.geoshard.harness.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.binding.NoopDB;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.Runner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.workloads.CoreWorkload;

/**
 * A real Prometheus node_exporter (Debian's {@code prometheus-node-exporter}, which {@code bin/test}
 * installs) on a free loopback port, scraped during a load: {@code servers.csv} holds its metrics with
 * increasing times. Skipped, saying so, where the program is not installed.
 */
class NodeExporterRunTest {
  static final Path PROGRAM = Path.of("/usr/bin/prometheus-node-exporter");

  @TempDir
  Path dir;
  private Process exporter;
  private String endpoint;

  @BeforeEach
  void startExporter() throws Exception {
    assumeTrue(Files.isExecutable(PROGRAM), PROGRAM + " is not installed (bin/test installs prometheus-node-exporter)");
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    endpoint = "127.0.0.1:" + port;
    exporter = new ProcessBuilder(PROGRAM.toString(), "--web.listen-address=" + endpoint,
        "--collector.disable-defaults", "--collector.cpu", "--collector.meminfo", "--collector.diskstats",
        "--collector.netdev", "--collector.loadavg")
        .redirectErrorStream(true).redirectOutput(dir.resolve("exporter.log").toFile()).start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      try (Socket s = new Socket("127.0.0.1", port)) {
        break;
      } catch (IOException notYet) {
        assertThat(exporter.isAlive()).as("node_exporter runs: %s", Files.readString(dir.resolve("exporter.log"))).isTrue();
        assertThat(System.nanoTime()).as("node_exporter listens within 30 s").isLessThan(deadline);
        Thread.sleep(50);
      }
    }
  }

  @AfterEach
  void stopExporter() throws InterruptedException {
    if (exporter != null) {
      exporter.destroy();
      exporter.waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void aLoadScrapesTheNodeExporterIntoServersCsvWithIncreasingTimes() throws Exception {
    Properties p = new Properties();
    p.setProperty("workload", CoreWorkload.class.getName());
    p.setProperty("recordcount", "600");
    p.setProperty("target", "300");  // about two seconds; the start and the end are read whatever the machine's load
    p.setProperty("status.interval", "0");
    p.setProperty("observe.interval", "0.2");
    p.setProperty("observe.nodeexporter", endpoint);
    p.setProperty("results.dir", dir.resolve("run").toString());
    new Runner(RunSettings.fromProperties(Phase.LOAD, p, "x"), p, new Binding("noop", NoopDB.class), dir).execute();

    List<String[]> rows = Files.readAllLines(dir.resolve("run/servers.csv")).stream().skip(1)
        .map(l -> l.split(",")).toList();
    assertThat(rows).allMatch(r -> r[1].equals(endpoint) && r[2].equals("host"));
    assertThat(rows).extracting(r -> r[3]).contains("node_cpu_seconds_total.user", "node_cpu_seconds_total.idle",
        "node_memory_MemAvailable_bytes", "node_load1").anyMatch(m -> m.startsWith("node_network_receive_bytes_total."));
    List<Double> times = rows.stream().filter(r -> r[3].equals("node_cpu_seconds_total.idle"))
        .map(r -> Double.parseDouble(r[0])).toList();
    assertThat(times).hasSizeGreaterThanOrEqualTo(2).isSorted().doesNotHaveDuplicates();
    List<Double> idle = rows.stream().filter(r -> r[3].equals("node_cpu_seconds_total.idle"))
        .map(r -> Double.parseDouble(r[4])).toList();
    assertThat(idle).as("a counter never goes back").isSorted();
    JsonNode observe = new ObjectMapper().readTree(dir.resolve("run/run.json").toFile()).get("observe");
    assertThat(observe.get("nodes").get(0).get("node").asText()).isEqualTo(endpoint);
    assertThat(observe.get("nodes").get(0).get("failures").asLong()).isZero();
    assertThat(observe.get("parts").get(0).get("part").asText()).isEqualTo("load");
  }

  @Test
  void anExporterThatIsGoneIsLoggedAndTheRunGoesOn() throws Exception {
    exporter.destroy();
    exporter.waitFor(10, TimeUnit.SECONDS);
    Properties p = new Properties();
    p.setProperty("workload", CoreWorkload.class.getName());
    p.setProperty("recordcount", "50");
    p.setProperty("status.interval", "0");
    p.setProperty("observe.interval", "0.2");
    p.setProperty("observe.nodeexporter", endpoint);
    p.setProperty("results.dir", dir.resolve("run").toString());
    var result = new Runner(RunSettings.fromProperties(Phase.LOAD, p, "x"), p, new Binding("noop", NoopDB.class), dir)
        .execute();
    assertThat(result.operations()).isEqualTo(50);
    JsonNode node = new ObjectMapper().readTree(dir.resolve("run/run.json").toFile()).get("observe").get("nodes").get(0);
    assertThat(node.get("failures").asLong()).isEqualTo(node.get("requests").asLong()).isPositive();
    assertThat(Files.readAllLines(dir.resolve("run/servers.csv"))).containsExactly("time_s,node,role,metric,value");
  }
}
