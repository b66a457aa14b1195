package org.geoshard.harness.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExpositionTest {
  /** Lines as node_exporter 1.x serves them, with the format's odd corners. */
  static final String SCRAPE = String.join("\n",
      "# HELP node_cpu_seconds_total Seconds the CPUs spent in each mode.",
      "# TYPE node_cpu_seconds_total counter",
      "node_cpu_seconds_total{cpu=\"0\",mode=\"idle\"} 1000.5",
      "node_cpu_seconds_total{cpu=\"0\",mode=\"user\"} 20.25",
      "node_cpu_seconds_total{cpu=\"1\",mode=\"idle\"} 900",
      "node_cpu_seconds_total{cpu=\"1\",mode=\"user\"} 1.5e1",
      "node_memory_MemAvailable_bytes 1.2345678e+10",
      "node_disk_read_bytes_total{device=\"sda\"} 4096",
      "node_disk_read_bytes_total{device=\"nvme0n1\"} 8192 1700000000000",
      "node_network_receive_bytes_total{device=\"eth0\"} 123",
      "node_filesystem_avail_bytes{device=\"/dev/sda1\",fstype=\"ext4\",mountpoint=\"/\"} 5",
      "node_textfile_scrape_error 0",
      "weird_metric{label=\"a \\\"quoted\\\", value\"} NaN",
      "broken_line{label=\"unterminated} 1",
      "no_value",
      "");

  @Test
  void parsesNamesLabelsValuesAndSkipsCommentsAndBrokenLines() {
    List<Exposition.Sample> samples = Exposition.parse(SCRAPE);
    assertThat(samples).extracting(Exposition.Sample::name).doesNotContain("broken_line", "no_value");
    assertThat(samples).hasSize(11);
    Exposition.Sample cpu = samples.get(0);
    assertThat(cpu.labels()).containsExactly(Map.entry("cpu", "0"), Map.entry("mode", "idle"));
    assertThat(cpu.value()).isEqualTo(1000.5);
    Exposition.Sample weird = samples.get(samples.size() - 1);
    assertThat(weird.labels()).containsEntry("label", "a \"quoted\", value");
    assertThat(weird.value()).isNaN();
    assertThat(samples.get(6).value()).as("a timestamp after the value is not the value").isEqualTo(8192);
  }

  @Test
  void aNodeExporterScrapeKeepsCpuByModeSummedOverCpusAndDevicesApart() {
    Map<String, Double> kept = NodeExporterProbe.reduce(SCRAPE);
    assertThat(kept.get("node_cpu_seconds_total.idle")).isCloseTo(1900.5, within(1e-9));
    assertThat(kept.get("node_cpu_seconds_total.user")).isCloseTo(35.25, within(1e-9));
    assertThat(kept).containsEntry("node_memory_MemAvailable_bytes", 1.2345678e10)
        .containsEntry("node_disk_read_bytes_total.sda", 4096.0)
        .containsEntry("node_disk_read_bytes_total.nvme0n1", 8192.0)
        .containsEntry("node_network_receive_bytes_total.eth0", 123.0)
        .doesNotContainKeys("node_filesystem_avail_bytes", "node_textfile_scrape_error");
  }
}
