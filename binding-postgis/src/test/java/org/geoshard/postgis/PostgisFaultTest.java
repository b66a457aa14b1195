package org.geoshard.postgis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import org.geoshard.geo.GeoWorkload;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.output.RunResult;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.Runner;
import org.geoshard.harness.run.StartFailedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Faults injected into the private PostGIS server without stopping it; skipped when it is not running. */
class PostgisFaultTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  private static Connection admin() throws SQLException {
    return DriverManager.getConnection(LocalPostgis.URL, LocalPostgis.USER, LocalPostgis.PASSWORD);
  }

  private static long count(String sql) throws SQLException {
    try (Connection c = admin(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private RunResult load(Properties p, String folder) throws Exception {
    p.setProperty("results.dir", dir.resolve(folder).toString());
    return new Runner(RunSettings.fromProperties(Phase.LOAD, p, "pg"), p, new Binding("postgis-geo", PostgisDB.class), dir)
        .execute();
  }

  @Test
  void loadingTwiceIsRefusedInOneLineAndAnAppendCountsEveryDuplicateAsAnError() throws Exception {
    Properties p = LocalPostgis.properties("t_twice");
    p.setProperty("workload", GeoWorkload.class.getName());
    p.setProperty("geo.scale", "0.0005");
    p.setProperty("threadcount", "2");
    p.setProperty("batchsize", "50");
    RunResult first = load(p, "first");
    long rows = count("SELECT count(*) FROM t_twice");
    assertThat(first.hasFailures()).isFalse();
    assertThat(first.perOperation().get("INSERT").count()).isEqualTo(rows);

    p.setProperty(PostgisSettings.DROP, "false");
    assertThatThrownBy(() -> load(p, "second"))
        .isInstanceOf(StartFailedException.class)
        .hasMessage("Preparing the database failed: Table 't_twice' already holds " + String.format(java.util.Locale.ROOT, "%,d", rows)
            + " rows: set postgis.drop=true to load it afresh, or postgis.append=true to add to it (a load split over"
            + " several clients, each with its own insertstart and insertcount).");
    JsonNode record = JSON.readTree(dir.resolve("second/run.json").toFile());
    assertThat(record.get("status").asText()).isEqualTo("failed to prepare");
    assertThat(record.get("failure").asText()).contains("already holds");

    // Asked to go on, every batch fails on duplicate ids: no insert may count as written.
    p.setProperty(PostgisSettings.APPEND, "true");
    RunResult third = load(p, "third");
    assertThat(count("SELECT count(*) FROM t_twice")).isEqualTo(rows);
    assertThat(third.perOperation().get("INSERT").count()).isEqualTo(rows);
    assertThat(third.perOperation().get("INSERT").errors()).isEqualTo(rows);
    assertThat(third.throughput()).isZero();
    assertThat(third.hasFailures()).isTrue();
    assertThat(third.threadFailures()).as("a failed last batch is counted, not a crash").isZero();
    JsonNode summary = JSON.readTree(dir.resolve("third/summary.json").toFile());
    assertThat(summary.get("succeeded").asLong()).isZero();
  }

  @Test
  void aConnectionKilledByTheServerIsOpenedAgain() throws Exception {
    PostgisSettings settings = PostgisSettings.fromProperties(LocalPostgis.properties("t_kill"));
    try (LiveConnection live = new LiveConnection(() -> Connections.open(settings), settings.maskedUrl())) {
      assertThat(pid(live)).isPositive();
      int killed = pid(live);
      try (Connection c = admin(); PreparedStatement s = c.prepareStatement("SELECT pg_terminate_backend(?)")) {
        s.setInt(1, killed);
        s.execute();
      }
      // The next use of the old connection fails; the failure is seen as a lost connection.
      SQLException failure = null;
      for (int i = 0; i < 50 && failure == null; i++) {
        try {
          pid(live);
          Thread.sleep(100);  // the backend may need a moment to go
        } catch (SQLException e) {
          failure = e;
        }
      }
      assertThat((Throwable) failure).isNotNull();
      live.failed(failure);
      assertThat(live.broken()).isTrue();
      int reopened = pid(live);
      assertThat(reopened).isPositive().isNotEqualTo(killed);
      assertThat(live.broken()).isFalse();
    }
  }

  private static int pid(LiveConnection live) throws SQLException {
    try (ResultSet rs = live.statement("SELECT pg_backend_pid()").executeQuery()) {
      rs.next();
      return rs.getInt(1);
    }
  }
}
