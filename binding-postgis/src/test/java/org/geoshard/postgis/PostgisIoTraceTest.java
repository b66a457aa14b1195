package org.geoshard.postgis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.geoshard.geo.GeoWorkload;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.observe.Stage;
import org.geoshard.harness.observe.StageListener;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.output.RunResult;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.Runner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * trace.io for real: a load whose index is built after it, traced with bpftrace while the index builds
 * (after the page cache was emptied), against the real PostGIS server. Needs root (eBPF, tracefs and
 * dropping the page cache) and bpftrace; skipped, saying which, otherwise.
 */
class PostgisIoTraceTest {
  private static final String TABLE = "t_iotrace";

  @TempDir
  Path dir;

  /**
   * Blocks PostgreSQL read from the operating system (not from its own buffers) in the test's database,
   * catalogs included: bin/postgis's server is private to this worktree.
   */
  private static long blocksRead() throws Exception {
    try (Connection c = DriverManager.getConnection(LocalPostgis.URL, LocalPostgis.USER, LocalPostgis.PASSWORD);
         Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT blks_read FROM pg_stat_database WHERE datname = current_database()")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  void theIndexBuildIsTracedAsThePostgresProcessesReadingAboutWhatPostgresSaysItRead() throws Exception {
    LocalPostgis.require();
    assumeTrue("root".equals(System.getProperty("user.name")),
        "trace.io needs root here (eBPF, tracefs, dropping the page cache); run the tests as root.");
    assumeTrue(List.of(System.getenv("PATH").split(":")).stream().anyMatch(d -> Files.isExecutable(Path.of(d, "bpftrace"))),
        "bpftrace is not installed (Debian package bpftrace; bin/test installs it).");
    Properties p = LocalPostgis.properties(TABLE);
    p.setProperty("workload", GeoWorkload.class.getName());
    p.setProperty("geo.scale", "0.01");
    p.setProperty("threadcount", "8");
    p.setProperty("trace.io", "after-load");
    p.setProperty("trace.io.dropcaches", "true");
    p.setProperty("results.dir", dir.resolve("load").toString());

    AtomicLong before = new AtomicLong();
    AtomicLong after = new AtomicLong();
    StageListener statio = new StageListener() {
      @Override
      public void started(Stage stage) {
        before.set(read());
      }

      @Override
      public void ended(Stage stage) {
        // The preparation's backend reports its counters when it exits, shortly after its connection closed.
        long deadline = System.nanoTime() + 30_000_000_000L;
        long now = read();
        while (now == before.get() && System.nanoTime() < deadline) {
          try {
            Thread.sleep(200);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            break;
          }
          now = read();
        }
        after.set(now);
      }

      private long read() {
        try {
          return blocksRead();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      }
    };
    RunResult result = new Runner(RunSettings.fromProperties(Phase.LOAD, p, "pg"), p,
        new Binding("postgis-geo", PostgisDB.class), dir).addStageListener(new StageListener() {
          @Override
          public void started(Stage stage) {
            if (stage == Stage.AFTER_LOAD) {
              statio.started(stage);
            }
          }

          @Override
          public void ended(Stage stage) {
            if (stage == Stage.AFTER_LOAD) {
              statio.ended(stage);
            }
          }
        }).execute();
    assertThat(result.hasFailures()).isFalse();

    JsonNode run = new ObjectMapper().readTree(Files.readString(result.folder().resolve("run.json")));
    JsonNode io = run.path("io");
    assertThat(io.path("status").asText()).as("io in run.json: %s", io).isEqualTo("traced");
    JsonNode trace = io.path("traces").path(0);
    assertThat(trace.path("stage").asText()).isEqualTo("after-load");
    Path csv = result.folder().resolve(trace.path("file").asText());
    List<String> rows = Files.readAllLines(csv);
    assertThat(rows.get(0)).isEqualTo("epoch_ms,stage,device,sector,bytes,op,rwbs,process,pid,latency_us");
    assertThat(rows).hasSizeGreaterThan(1);
    // Every row is a PostgreSQL process's request, during the build (after the load began).
    long loadStart = java.time.Instant.parse(run.path("startTime").asText()).toEpochMilli();
    for (String row : rows.subList(1, rows.size())) {
      String[] f = row.split(",");
      assertThat(f[7]).as("process of %s", row).isEqualTo("postgres");
      assertThat(Double.parseDouble(f[0])).as("time of %s", row).isGreaterThan(loadStart);
    }
    assertThat(trace.path("requests").asLong()).isEqualTo(rows.size() - 1);

    // With the page cache emptied, every block PostgreSQL fetched from the system during the build came
    // from the disk, so the trace holds at least about as many read bytes. It holds more: the processes'
    // program and library pages (postgres, PostGIS, GEOS, PROJ) paged in again after the cache was emptied,
    // and readahead. Blocks found in PostgreSQL's own shared buffers cause no disk request at all.
    long statioBytes = (after.get() - before.get()) * 8192;
    long tracedReads = trace.path("readBytes").asLong();
    LoggerFactory.getLogger(PostgisIoTraceTest.class).info("Index build: traced reads {} bytes, PostgreSQL read {}"
        + " bytes from the system; trace {}", tracedReads, statioBytes, trace);
    // No positive floor on statioBytes: a table that still sits in shared_buffers after its load makes the
    // build read (almost) nothing from the system, which is a true answer, not a failure of the trace.
    assertThat(statioBytes).as("bytes PostgreSQL read from the system during the build").isNotNegative();
    assertThat(tracedReads).as("traced read bytes against pg_stat_database's %d", statioBytes).isBetween(statioBytes / 2, statioBytes * 4 + (256L << 20));
    assertThat(trace.path("sequentialShare").asDouble()).isBetween(0.0, 1.0);
    assertThat(trace.path("latencyUs").path("p50").asLong()).isPositive();
  }
}
