package org.geoshard.postgis;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.geoshard.geo.GeoWorkload;
import org.geoshard.harness.api.ServerProbe;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.Runner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server sampler's PostgreSQL probe against the real local server (bin/postgis). */
class PostgisProbeTest {
  @TempDir
  Path dir;

  @Test
  void namesTheNodeByHostAndPort() {
    assertThat(PostgisProbe.node("jdbc:postgresql://127.0.0.1:54329/geoshard")).isEqualTo("127.0.0.1:54329");
    assertThat(PostgisProbe.node("jdbc:postgresql://db-1/geoshard?user=x")).isEqualTo("db-1:5432");
    assertThat(PostgisProbe.node("jdbc:postgresql://u:p@db-1:6000,db-2:6000/geoshard")).isEqualTo("db-1:6000");
  }

  @Test
  void aLoadSamplesTheDatabaseTheTableAndTheIndexBuildOnThePhasesClock() throws Exception {
    Properties p = LocalPostgis.properties("t_observe");
    p.setProperty("workload", GeoWorkload.class.getName());
    p.setProperty("geo.scale", "0.001");
    p.setProperty("threadcount", "2");
    p.setProperty("observe.interval", "0.2");
    p.setProperty("results.dir", dir.resolve("load").toString());
    new Runner(RunSettings.fromProperties(Phase.LOAD, p, "pg"), p, new Binding("postgis-geo", PostgisDB.class), dir)
        .execute();

    List<String[]> rows = Files.readAllLines(dir.resolve("load/servers.csv")).stream().skip(1)
        .map(l -> l.split(",")).toList();
    assertThat(rows).isNotEmpty().allMatch(r -> r[2].equals("postgresql"));
    assertThat(rows).extracting(r -> r[3]).contains("pg_xact_commit_total", "pg_blks_hit_total", "pg_blks_read_total",
        "pg_tup_returned_total", "pg_backends_active", "pg_checkpoints_timed_total",
        "pg_statio_heap_blks_hit_total.t_observe", "pg_statio_index_blks_hit_total.t_observe_pkey");
    List<Double> times = values(rows, "pg_xact_commit_total", 0);
    List<Double> commits = values(rows, "pg_xact_commit_total", 4);
    assertThat(times).hasSizeGreaterThanOrEqualTo(2).isSorted().doesNotHaveDuplicates();
    assertThat(commits).isSorted();
    assertThat(commits.get(commits.size() - 1)).as("the load's COPYs committed while sampled")
        .isGreaterThan(commits.get(0));
    List<Double> heapHits = values(rows, "pg_statio_heap_blks_hit_total.t_observe", 4);
    assertThat(heapHits.get(heapHits.size() - 1)).isPositive();

    JsonNode observe = new ObjectMapper().readTree(dir.resolve("load/run.json").toFile()).get("observe");
    assertThat(observe.get("nodes").get(0).get("node").asText()).isEqualTo(PostgisProbe.node(LocalPostgis.URL));
    assertThat(observe.get("nodes").get(0).get("failures").asLong()).isZero();
    assertThat(observe.get("parts").findValuesAsText("part")).containsExactly("load", "after-load");
    double indexBuildEnd = observe.get("parts").get(1).get("endS").asDouble();
    assertThat(times.get(times.size() - 1)).as("read after the index build too").isGreaterThanOrEqualTo(
        observe.get("parts").get(1).get("startS").asDouble()).isLessThan(indexBuildEnd + 60);
  }

  @Test
  void aKilledSamplerConnectionFailsOneReadingAndIsOpenedAgain() throws Exception {
    Properties p = LocalPostgis.properties("t_probe");
    PostgisDB db = new PostgisDB();
    db.setProperties(p);
    db.init();
    List<ServerProbe> probes;
    try {
      probes = db.serverProbes();
    } finally {
      db.cleanup();
    }
    assertThat(probes).hasSize(1);
    try (ServerProbe probe = probes.get(0)) {
      Map<String, Double> first = probe.sample();
      assertThat(first).containsKeys("pg_xact_commit_total", "pg_blks_hit_total", "pg_backends_active");
      try (Connection c = DriverManager.getConnection(LocalPostgis.URL, LocalPostgis.USER, LocalPostgis.PASSWORD);
           Statement s = c.createStatement()) {
        s.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'geoshard-observer'");
      }
      boolean failedOnce = false;
      try {
        probe.sample();
      } catch (Exception e) {
        failedOnce = true;
      }
      Map<String, Double> again = probe.sample();
      assertThat(again.get("pg_xact_commit_total")).isGreaterThanOrEqualTo(first.get("pg_xact_commit_total"));
      assertThat(failedOnce || again.containsKey("pg_backends_active")).isTrue();
    }
  }

  private static List<Double> values(List<String[]> rows, String metric, int column) {
    return rows.stream().filter(r -> r[3].equals(metric)).map(r -> Double.parseDouble(r[column])).toList();
  }
}
