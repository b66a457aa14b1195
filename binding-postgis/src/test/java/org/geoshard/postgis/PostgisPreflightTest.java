package org.geoshard.postgis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.geoshard.geo.GeoWorkload;
import org.geoshard.geo.contract.GeoContract;
import org.geoshard.harness.api.DataDeclaration;
import org.geoshard.harness.api.Preflight;
import org.geoshard.harness.api.Preflight.Before;
import org.geoshard.harness.api.Preflight.Check;
import org.geoshard.harness.api.SharedObjects;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.Runner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/ycsb preflight postgis-geo}'s checks against the real PostGIS, before and after a load: every
 * line read from the catalog, the rows against the scenario's dataset, and what a run refuses failing
 * preflight with the run's own sentence.
 */
class PostgisPreflightTest {
  @TempDir
  Path dir;

  /** As {@code bin/ycsb preflight}: the binding joins a phase whose declaration comes from the initialised workload. */
  private static List<Check> preflight(Properties p, Before before) throws Exception {
    PostgisDB db = new PostgisDB();
    db.setProperties(p);
    try (SharedObjects shared = new SharedObjects(declared(p))) {
      db.joinRun(shared);
      db.init();
      try {
        return db.preflight(before);
      } finally {
        db.cleanup();
      }
    }
  }

  /** What the run says before its threads start: its refusal's message, or null when it would start. */
  private static String runRefusal(Properties p) throws Exception {
    return runRefusal(p, Set.of(GeoContract.RESTAURANTS));
  }

  private static String runRefusal(Properties p, Set<org.geoshard.harness.api.DataRole> roles) throws Exception {
    PostgisDB db = new PostgisDB();
    db.setProperties(p);
    try (SharedObjects shared = new SharedObjects(declared(p))) {
      db.joinRun(shared);
      db.init();
      try {
        Throwable refused = catchThrowable(() -> db.checkBeforeRun(roles));
        return refused == null ? null : refused.getMessage();
      } finally {
        db.cleanup();
      }
    }
  }

  /** What bin/ycsb preflight hands the binding: the declaration of the initialised workload the properties name. */
  private static DataDeclaration declared(Properties p) throws Exception {
    return org.geoshard.harness.run.WorkloadLoader.initialisedDeclaration(p);
  }

  private static GeoWorkload workload(Properties p) throws Exception {
    GeoWorkload workload = new GeoWorkload();
    workload.init(p);
    return workload;
  }

  private static Check named(List<Check> checks, String name) {
    return checks.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow(() -> new AssertionError(name + " in " + checks));
  }

  private static void sql(String statement) throws Exception {
    try (Connection c = DriverManager.getConnection(LocalPostgis.URL, LocalPostgis.USER, LocalPostgis.PASSWORD);
         Statement s = c.createStatement()) {
      s.execute(statement);
    }
  }

  private Properties loaded(String table) throws Exception {
    Properties p = LocalPostgis.properties(table);
    p.setProperty("workload", GeoWorkload.class.getName());
    p.setProperty("geo.scale", "0.0005");
    p.setProperty("results.dir", dir.resolve("load-" + table).toString());
    new Runner(RunSettings.fromProperties(Phase.LOAD, p, "pg"), p, new Binding("postgis-geo", PostgisDB.class), dir).execute();
    p.remove("postgis.drop");
    return p;
  }

  @Test
  void readsVersionsTablePartitioningGistIndexRowsAndSharedBuffers() throws Exception {
    Properties p = loaded("t_preflight");
    long rows = workload(p).dataset().size();
    List<Check> checks = preflight(p, Before.RUN);
    assertThat(checks).extracting(Check::name)
        .containsExactly("server reached", "server version", "PostGIS version", "table", "GiST index", "rows", "shared_buffers");
    assertThat(checks).allMatch(c -> c.status() == Preflight.Verdict.OK, "all ok");
    assertThat(named(checks, "server version").detail()).matches("PostgreSQL \\d+.*");
    assertThat(named(checks, "PostGIS version").detail()).matches("\\d+\\.\\d+.*");
    assertThat(named(checks, "table").detail()).isEqualTo("t_preflight, a plain table");
    assertThat(named(checks, "GiST index").detail()).isEqualTo("on t_preflight.location");
    assertThat(named(checks, "rows").detail()).isEqualTo(String.format(
        "t_preflight holds %,d rows (the scenario's dataset: %,d)", rows, rows));
    assertThat(named(checks, "shared_buffers").detail()).matches("\\d+[kMG]B");
    assertThat(runRefusal(p)).isNull();

    // The same rows against another scale's dataset: the count the dataset gives, exactly.
    Properties otherScale = (Properties) p.clone();
    otherScale.setProperty("geo.scale", "0.001");
    long wanted = workload(otherScale).dataset().size();
    assertThat(named(preflight(otherScale, Before.RUN), "rows")).isEqualTo(Check.fail("rows", String.format(
        "t_preflight holds %,d rows, but the scenario's dataset has exactly %,d: the data was loaded with other "
            + "properties (e.g. geo.scale, recordcount) or not completely", rows, wanted)));
    // A split load (postgis.append): a lower bound, said so.
    Properties appending = (Properties) p.clone();
    appending.setProperty("postgis.append", "true");
    assertThat(named(preflight(appending, Before.RUN), "rows").detail()).isEqualTo(String.format("t_preflight holds %,d "
        + "rows (at least %,d expected: the scenario's runs add to the loaded data, so this is a lower bound)", rows, rows));

    List<Check> absent = preflight(LocalPostgisGeo.of("t_preflight_absent"), Before.LOAD);
    assertThat(named(absent, "table").detail()).isEqualTo("t_preflight_absent absent: a load creates it");
    assertThat(absent).extracting(Check::name).doesNotContain("GiST index");
    assertThat(named(absent, "rows").detail()).startsWith("t_preflight_absent is empty or absent: a load fills it (");
  }

  @Test
  void cellPartitionsAskedOfAPlainTableFailFromTheCatalogNotTheProperty() throws Exception {
    Properties p = loaded("t_preflight_plain");
    p.setProperty(CellPartitioning.PARTITION, "cells:3");
    List<Check> checks = preflight(p, Before.RUN);
    String sentence = "postgis.partition is 'cells:3', but table t_preflight_plain at " + LocalPostgis.URL + " is a plain"
        + " table, so every near query would fail (it has no column 'cell'): load it again with postgis.drop=true and this"
        + " property, or set postgis.partition=none.";
    assertThat(named(checks, "table")).isEqualTo(Check.fail("table", sentence));
    assertThat(checks).contains(Check.fail("the run would refuse", sentence));
    assertThat(runRefusal(p)).isEqualTo(sentence);
  }

  @Test
  void aMissingGistIndexIsRefusedByTheRunAndPreflightWithOneSentenceUnlessSeqScansAreWanted() throws Exception {
    Properties p = loaded("t_preflight_nogist");
    sql("DROP INDEX t_preflight_nogist_location_gist");
    String sentence = PostgisRunChecks.noGistIndex("Table t_preflight_nogist at " + LocalPostgis.URL);
    assertThat(sentence).startsWith("Table t_preflight_nogist at " + LocalPostgis.URL + " has no GiST index on 'location'");
    assertThat(runRefusal(p)).isEqualTo(sentence);
    List<Check> run = preflight(p, Before.RUN);
    assertThat(run).contains(Check.fail("the run would refuse", sentence));
    assertThat(named(run, "GiST index")).isEqualTo(Check.warn("GiST index",
        "none on t_preflight_nogist.location (a load builds it after the last row)"));
    // Before a load: the load builds it.
    assertThat(preflight(p, Before.LOAD)).noneMatch(c -> c.status() == Preflight.Verdict.FAIL);
    // Measured on purpose.
    p.setProperty(PostgisSettings.ALLOW_SEQ_SCAN, "true");
    assertThat(runRefusal(p)).isNull();
    assertThat(named(preflight(p, Before.RUN), "GiST index")).isEqualTo(Check.warn("GiST index",
        "none on t_preflight_nogist.location: near queries scan the table (postgis.allowSeqScan=true)"));
  }

  @Test
  void anEmptyTableIsFineBeforeALoadAndRefusedBeforeARun() throws Exception {
    Properties p = loaded("t_preflight_empty");
    sql("TRUNCATE t_preflight_empty");
    String sentence = "Table t_preflight_empty at " + LocalPostgis.URL + " holds no records, and this run reads loaded"
        + " data: load it first (bin/ycsb load with the same properties), or check the table, collection or URL.";
    assertThat(runRefusal(p)).isEqualTo(sentence);
    List<Check> run = preflight(p, Before.RUN);
    assertThat(run).contains(Check.fail("the run would refuse", sentence));
    assertThat(run).extracting(Check::name).doesNotContain("rows");
    List<Check> load = preflight(p, Before.LOAD);
    assertThat(load).noneMatch(c -> c.status() == Preflight.Verdict.FAIL);
    assertThat(named(load, "rows").detail()).startsWith("t_preflight_empty is empty or absent: a load fills it (");
  }

  @Test
  void theLocationStreamsTablesAreCountedAndEmptyOnesRefusedBeforeARun() throws Exception {
    sql("DROP TABLE IF EXISTS ll_history CASCADE");
    sql("DROP TABLE IF EXISTS ll_lkl CASCADE");
    Properties p = LocalPostgis.properties("t_preflight_ll");
    p.remove("postgis.drop");
    p.setProperty("workload", org.geoshard.lastlocation.LastLocationWorkload.class.getName());
    p.setProperty("ll.users", "50");
    p.setProperty("ll.history.peruser", "2");
    List<Check> load = preflight(p, Before.LOAD);
    assertThat(load).filteredOn(c -> c.name().equals("rows")).extracting(Check::detail).containsExactly(
        "ll_history is empty or absent: a load fills it (100 rows)", "ll_lkl is empty or absent: a load fills it (50 rows)");
    String history = "Table ll_history at " + LocalPostgis.URL + " holds no records, and this run reads loaded data: load it"
        + " first (bin/ycsb load with the same properties), or check the table, collection or URL.";
    String lkl = history.replace("ll_history", "ll_lkl");
    List<Check> run = preflight(p, Before.RUN);
    assertThat(run).contains(Check.fail("the run would refuse", history), Check.fail("the run would refuse", lkl));
    assertThat(runRefusal(p, Set.of(org.geoshard.lastlocation.contract.LastLocationContract.HISTORY,
        org.geoshard.lastlocation.contract.LastLocationContract.LAST_KNOWN))).isEqualTo(history + " " + lkl);
    // The insert-only tables: the readers ask History, which the writers fill; no Last-Known-Location is kept.
    p.setProperty("ll.write.mode", "insertonly");
    p.setProperty("ll.read.proportion.lkl", "0");
    p.setProperty("ll.read.proportion.range", "1");
    assertThat(runRefusal(p, Set.of(org.geoshard.lastlocation.contract.LastLocationContract.HISTORY,
        org.geoshard.lastlocation.contract.LastLocationContract.LAST_KNOWN))).isNull();
    List<Check> insertOnly = preflight(p, Before.RUN);
    assertThat(insertOnly).noneMatch(c -> c.status() == Preflight.Verdict.FAIL);
    assertThat(insertOnly).filteredOn(c -> c.name().equals("rows")).extracting(Check::detail)
        .containsExactly("ll_history is empty or absent: this run only inserts");
  }

  /** Properties of the geo workload on a table of the test's own, not loaded. */
  private static final class LocalPostgisGeo {
    static Properties of(String table) {
      Properties p = LocalPostgis.properties(table);
      p.remove("postgis.drop");
      p.setProperty("workload", GeoWorkload.class.getName());
      p.setProperty("geo.scale", "0.0005");
      return p;
    }
  }
}
