package org.geoshard.harness.observe;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.geoshard.harness.api.ServerProbe;

/**
 * Scrapes one Prometheus {@code node_exporter} ({@code GET http://host:port/metrics}) on a client of its
 * own and keeps what explains a database host's behaviour: CPU seconds by mode (summed over the CPUs),
 * memory, per-device disk reads, writes, bytes and busy time, per-interface network bytes and packets,
 * and the load average. Names stay node_exporter's, with the label that matters after a dot
 * ({@code node_cpu_seconds_total.iowait}, {@code node_disk_read_bytes_total.sda}).
 */
final class NodeExporterProbe implements ServerProbe {
  static final String ROLE = "host";
  private static final Set<String> MEMORY = Set.of("node_memory_MemTotal_bytes", "node_memory_MemAvailable_bytes",
      "node_memory_MemFree_bytes", "node_memory_Cached_bytes", "node_memory_Buffers_bytes", "node_memory_Dirty_bytes",
      "node_memory_Writeback_bytes", "node_memory_SwapFree_bytes", "node_memory_SwapTotal_bytes");
  private static final Set<String> DISK = Set.of("node_disk_reads_completed_total", "node_disk_writes_completed_total",
      "node_disk_read_bytes_total", "node_disk_written_bytes_total", "node_disk_read_time_seconds_total",
      "node_disk_write_time_seconds_total", "node_disk_io_time_seconds_total", "node_disk_io_now");
  private static final Set<String> NETWORK = Set.of("node_network_receive_bytes_total",
      "node_network_transmit_bytes_total", "node_network_receive_packets_total", "node_network_transmit_packets_total");
  private static final Set<String> PLAIN = Set.of("node_load1", "node_procs_running", "node_procs_blocked",
      "node_context_switches_total");

  private final String endpoint;
  private final URI uri;
  private final Duration timeout;
  private final HttpClient client;

  NodeExporterProbe(String endpoint, Duration timeout) {
    this.endpoint = endpoint;
    this.uri = URI.create("http://" + endpoint + "/metrics");
    this.timeout = timeout;
    // One client per exporter: its own keep-alive connection, as the issue asks of every node.
    this.client = HttpClient.newBuilder().connectTimeout(timeout).build();
  }

  @Override
  public String node() {
    return endpoint;
  }

  @Override
  public String role() {
    return ROLE;
  }

  @Override
  public Map<String, Double> sample() throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(uri).timeout(timeout).GET().build();
    HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IOException("node_exporter at " + uri + " answered HTTP " + response.statusCode());
    }
    return reduce(response.body());
  }

  /** The metrics kept from one scrape. */
  static Map<String, Double> reduce(String exposition) {
    Map<String, Double> out = new TreeMap<>();
    for (Exposition.Sample s : Exposition.parse(exposition)) {
      String name = s.name();
      if (name.equals("node_cpu_seconds_total") && s.labels().containsKey("mode")) {
        out.merge(name + "." + s.labels().get("mode"), s.value(), Double::sum);
      } else if (MEMORY.contains(name) || PLAIN.contains(name)) {
        out.put(name, s.value());
      } else if (DISK.contains(name) && s.labels().containsKey("device")) {
        out.put(name + "." + s.labels().get("device"), s.value());
      } else if (NETWORK.contains(name) && s.labels().containsKey("device")) {
        out.put(name + "." + s.labels().get("device"), s.value());
      }
    }
    return out;
  }

  @Override
  public void close() {
    // java.net.http.HttpClient has no close before Java 21; its connections end with it.
  }
}
