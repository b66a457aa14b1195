package org.geoshard.postgis;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Progress lines of an index build, from PostgreSQL's pg_stat_progress_create_index. */
class PostgisIndexProgressTest {
  @Test
  void aLineSaysThePhaseTheShareAndTheTime() {
    assertThat(IndexProgress.line("restaurants_location_gist",
        new IndexProgress.Sample("building index: scanning table", 12_345, 27_300, 0, 0, 35.4)))
        .isEqualTo("Index restaurants_location_gist: building index: scanning table, 45.2% of blocks (12,345 of 27,300),"
            + " running 35 s");
    assertThat(IndexProgress.line("i", new IndexProgress.Sample("building index: loading tuples in tree", 0, 0, 50, 200, 1)))
        .isEqualTo("Index i: building index: loading tuples in tree, 25.0% of rows (50 of 200), running 1 s");
    assertThat(IndexProgress.line("i", new IndexProgress.Sample("initializing", 0, 0, 0, 0, 0)))
        .isEqualTo("Index i: initializing, running 0 s");
  }

  @Test
  void aSlowBuildIsReportedWhileItRuns() throws Exception {
    LocalPostgis.require();
    List<String> lines = new CopyOnWriteArrayList<>();
    try (Connection c = DriverManager.getConnection(LocalPostgis.URL, LocalPostgis.USER, LocalPostgis.PASSWORD);
         Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS progress_test");
      s.execute("CREATE TABLE progress_test (id int, location geography(Point, 4326))");
      s.execute("INSERT INTO progress_test SELECT i, ST_MakePoint(i % 360 - 180, i % 180 - 90)::geography"
          + " FROM generate_series(1, 800) i");
      // An index expression that sleeps 2 ms a row: the build takes at least 1.6 s whatever the machine,
      // far longer than the 50 ms between samples, so lines are certain without any timing bet.
      s.execute("CREATE OR REPLACE FUNCTION progress_test_slow(g geography) RETURNS geography"
          + " LANGUAGE plpgsql IMMUTABLE AS $$ BEGIN PERFORM pg_sleep(0.002); RETURN g; END $$");
      Connection watcher = DriverManager.getConnection(LocalPostgis.URL, LocalPostgis.USER, LocalPostgis.PASSWORD);
      try (IndexProgress progress = IndexProgress.start(watcher, "progress_test", "progress_test_gist",
          Duration.ofMillis(50), lines::add)) {
        s.execute("CREATE INDEX progress_test_gist ON progress_test USING GIST (progress_test_slow(location))");
      }
      assertThat(watcher.isClosed()).isTrue();
      s.execute("DROP TABLE progress_test");
      s.execute("DROP FUNCTION progress_test_slow(geography)");
    }
    assertThat(lines).isNotEmpty().allSatisfy(line -> assertThat(line)
        .matches("Index progress_test_gist: [a-z :]+(, [0-9.]+% of (blocks|rows) \\([0-9,]+ of [0-9,]+\\))?, running \\d+ s"));
    assertThat(lines).anyMatch(line -> line.contains("building index"));
  }
}
