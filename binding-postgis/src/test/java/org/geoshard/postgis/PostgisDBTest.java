package org.geoshard.postgis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.geoshard.geo.GeoWorkload;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.output.RunResult;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.Runner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.DBException;
import site.ycsb.workloads.CoreWorkload;

/** Against the real PostGIS server of bin/postgis; skipped when it is not running. */
class PostgisDBTest {
  @TempDir
  Path dir;

  private static long count(String sql) throws Exception {
    try (Connection c = DriverManager.getConnection(LocalPostgis.URL, LocalPostgis.USER, LocalPostgis.PASSWORD);
         Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** Steps that run each step's work and keep its details by the step's name. */
  private static org.geoshard.harness.api.Preparable.Steps recording(Map<String, Map<String, Object>> details) {
    return (name, work) -> {
      try {
        details.put(name, work.run());
      } catch (Exception e) {
        throw new DBException(e);
      }
    };
  }

  private RunResult run(Phase phase, Properties p, String folder) throws Exception {
    p.setProperty("results.dir", dir.resolve(folder).toString());
    return new Runner(RunSettings.fromProperties(phase, p, "pg"), p, new Binding("postgis-geo", PostgisDB.class), dir)
        .execute();
  }

  @Test
  void aBatchedLoadWritesEveryRestaurantOnceIncludingTheLastPartialBatches() throws Exception {
    Properties p = LocalPostgis.properties("t_load");
    p.setProperty("workload", GeoWorkload.class.getName());
    p.setProperty("geo.scale", "0.0005");
    p.setProperty("threadcount", "3");
    p.setProperty("batchsize", "7");
    RunResult result = run(Phase.LOAD, p, "load");
    GeoWorkload workload = new GeoWorkload();
    workload.init(p);
    long expected = workload.dataset().size();
    assertThat(result.hasFailures()).isFalse();
    assertThat(result.perOperation().get("INSERT").count()).isEqualTo(expected);
    assertThat(count("SELECT count(*) FROM t_load")).isEqualTo(expected);
    assertThat(count("SELECT count(DISTINCT id) FROM t_load")).isEqualTo(expected);
    assertThat(count("SELECT min(id) FROM t_load")).isZero();
    assertThat(count("SELECT max(id) FROM t_load")).isEqualTo(expected - 1);
    assertThat(count("SELECT count(*) FROM pg_indexes WHERE indexname = 't_load_location_gist'")).isEqualTo(1);
  }

  @Test
  void ycsbsCoreWorkloadRunsOnTheKeyValueTable() throws Exception {
    Properties p = LocalPostgis.properties("t_core");
    p.setProperty("workload", CoreWorkload.class.getName());
    p.setProperty("recordcount", "500");
    p.setProperty("operationcount", "2000");
    p.setProperty("threadcount", "2");
    p.setProperty("readproportion", "0.5");
    p.setProperty("updateproportion", "0.3");
    p.setProperty("scanproportion", "0.1");
    p.setProperty("insertproportion", "0.1");
    RunResult load = run(Phase.LOAD, p, "core-load");
    assertThat(load.hasFailures()).isFalse();
    assertThat(count("SELECT count(*) FROM t_core_kv")).isEqualTo(500);
    RunResult result = run(Phase.RUN, p, "core-run");
    assertThat(result.errors()).isZero();
    assertThat(result.perOperation()).containsKeys("READ", "UPDATE", "SCAN", "INSERT");
    assertThat(count("SELECT count(*) FROM t_core_kv")).isEqualTo(500 + result.perOperation().get("INSERT").count());
  }

  @Test
  void anUnreachableServerFailsFastWithWhereItTried() {
    LocalPostgis.require();
    Properties p = LocalPostgis.properties("t_x");
    p.setProperty(PostgisSettings.URL, "jdbc:postgresql://127.0.0.1:1/geoshard");
    p.setProperty(PostgisSettings.CONNECT_TIMEOUT, "2");
    PostgisDB db = new PostgisDB();
    db.setProperties(p);
    long started = System.nanoTime();
    assertThatThrownBy(db::init).isInstanceOf(DBException.class)
        .hasMessageStartingWith("No PostgreSQL server reachable at jdbc:postgresql://127.0.0.1:1/geoshard within 2 s");
    assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started)).isLessThan(10);
  }

  @Test
  void badCredentialsAreNamed() {
    Properties p = LocalPostgis.properties("t_x");
    p.setProperty(PostgisSettings.PASSWORD, "wrong-" + LocalPostgis.PASSWORD);
    PostgisDB db = new PostgisDB();
    db.setProperties(p);
    assertThatThrownBy(db::init).isInstanceOf(DBException.class)
        .hasMessageStartingWith("Authentication failed for user 'geoshard' at")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(LocalPostgis.PASSWORD));
  }

  private static PostgisSettings withPassword(PostgisSettings given, String password) {
    return new PostgisSettings(given.url(), given.user(), password, given.table(), given.batchSize(), given.indexAfterLoad(),
        given.drop(), given.append(), given.connectTimeout(), given.statusInterval(), given.allowSeqScan());
  }

  @Test
  void aMissingPasswordIsNamedWithWhereItIsRead() throws Exception {
    // bin/postgis's server asks for a password over TCP (scram-sha-256); none given (no PGPASSWORD either:
    // the settings are made without one, whatever this JVM's environment holds).
    PostgisSettings given = PostgisSettings.fromProperties(LocalPostgis.properties("t_x"));
    PostgisSettings none = withPassword(given, null);
    long started = System.nanoTime();
    assertThatThrownBy(() -> Connections.open(none)).isInstanceOf(DBException.class)
        .hasMessageStartingWith("The PostgreSQL server at " + LocalPostgis.URL + " asks for a password for user 'geoshard'"
            + " and none was given: set postgis.password, or PGPASSWORD in the environment")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("No PostgreSQL server reachable"));
    // It answered: no waiting for the connect timeout (5 s).
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isLessThan(4000);

    PostgisSettings empty = withPassword(given, "");
    assertThatThrownBy(() -> Connections.open(empty)).isInstanceOf(DBException.class)
        .hasMessageStartingWith("The PostgreSQL server at " + LocalPostgis.URL + " asks for a password for user 'geoshard'"
            + " and the one given is empty");
  }

  @Test
  void aDatabaseWithoutPostgisIsNamed() throws Exception {
    LocalPostgis.require();
    try (Connection c = DriverManager.getConnection(LocalPostgis.URL, LocalPostgis.USER, LocalPostgis.PASSWORD);
         Statement s = c.createStatement()) {
      if (count("SELECT count(*) FROM pg_database WHERE datname = 'geoshard_plain'") == 0) {
        s.execute("CREATE DATABASE geoshard_plain");
      }
    }
    Properties p = LocalPostgis.properties("t_x");
    p.setProperty(PostgisSettings.URL, LocalPostgis.URL.replace("/geoshard", "/geoshard_plain"));
    PostgisDB db = new PostgisDB();
    db.setProperties(p);
    assertThatThrownBy(db::init).isInstanceOf(DBException.class)
        .hasMessageContaining("PostGIS is not installed in the database of").hasMessageContaining("CREATE EXTENSION postgis");
  }

  @Test
  void topologyDescribesServerAndTable() throws Exception {
    Properties p = LocalPostgis.properties("t_topo");
    PostgisDB db = new PostgisDB();
    db.setProperties(p);
    db.init();
    try {
      db.prepare(org.geoshard.harness.api.Preparable.Stage.BEFORE_LOAD,
          java.util.Set.of(org.geoshard.geo.contract.GeoContract.RESTAURANTS), recording(new java.util.HashMap<>()));
      Map<String, Object> topology = db.topology();
      assertThat(topology).containsEntry("kind", "postgresql").containsEntry("table", "t_topo").containsEntry("rows", 0L);
      assertThat((String) topology.get("postgis")).startsWith("3.");
    } finally {
      db.cleanup();
    }
  }

  @Test
  void indexAndTableBytesCountAPlainUnpartitionedTable() throws Exception {
    Properties p = LocalPostgis.properties("t_bytes");
    PostgisDB db = new PostgisDB();
    db.setProperties(p);
    db.init();
    try {
      Map<String, Map<String, Object>> details = new java.util.HashMap<>();
      org.geoshard.harness.api.Preparable.Steps steps = recording(details);
      db.prepare(org.geoshard.harness.api.Preparable.Stage.BEFORE_LOAD,
          java.util.Set.of(org.geoshard.geo.contract.GeoContract.RESTAURANTS), steps);
      db.prepare(org.geoshard.harness.api.Preparable.Stage.AFTER_LOAD,
          java.util.Set.of(org.geoshard.geo.contract.GeoContract.RESTAURANTS), steps);
      // pg_partition_tree returns no row for a plain index: the size used to be summed over nothing (0).
      long indexBytes = count("SELECT pg_relation_size('" + Schema.locationIndex("t_bytes") + "')");
      assertThat(indexBytes).isPositive();
      assertThat(details.get("create GiST index")).containsEntry("indexBytes", indexBytes);
      assertThat(db.topology()).containsEntry("tableBytes", count("SELECT pg_total_relation_size('t_bytes')"));
      assertThat((Long) db.topology().get("tableBytes")).isPositive();
    } finally {
      db.cleanup();
    }
  }

  @Test
  void theKeyValueTableIsTheRunsDeclarationsAndUnderPlainYcsbTheNamedWorkloadsDeclaration() throws Exception {
    Properties p = LocalPostgis.properties("t_joined");
    p.setProperty("table", "t_joined_property");
    try (Connection c = DriverManager.getConnection(LocalPostgis.URL, LocalPostgis.USER, LocalPostgis.PASSWORD);
         Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS t_joined_property");  // left by an earlier run of this test
    }
    Map<String, Map<String, Object>> details = new java.util.HashMap<>();
    java.util.Set<org.geoshard.harness.api.DataRole> kv = java.util.Set.of(org.geoshard.harness.api.DataRole.KEY_VALUE);
    try (org.geoshard.harness.api.SharedObjects run = new org.geoshard.harness.api.SharedObjects(
        new org.geoshard.harness.api.DataDeclaration(kv, "t_joined_declared", 0, null))) {
      PostgisDB db = new PostgisDB();
      db.setProperties(p);
      db.joinRun(run);
      db.init();
      try {
        db.prepare(org.geoshard.harness.api.Preparable.Stage.BEFORE_LOAD, kv, recording(details));
        assertThat(db.topology(kv)).containsEntry("table", "t_joined_declared");
      } finally {
        db.cleanup();
      }
    }
    assertThat(count("SELECT count(*) FROM pg_class WHERE relname = 't_joined_property'")).isZero();

    // Plain YCSB hands the instance no run: the workload YCSB's properties name declares the data.
    p.setProperty("workload", CoreWorkload.class.getName());
    PostgisDB alone = new PostgisDB();
    alone.setProperties(p);
    alone.init();
    try {
      alone.prepare(org.geoshard.harness.api.Preparable.Stage.BEFORE_LOAD, kv, recording(details));
      assertThat(alone.topology(kv)).containsEntry("table", "t_joined_property");
    } finally {
      alone.cleanup();
    }
  }
}
