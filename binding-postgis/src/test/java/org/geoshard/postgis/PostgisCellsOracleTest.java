package org.geoshard.postgis;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.SplittableRandom;
import org.geoshard.geo.GeoSettings;
import org.geoshard.geo.GeoWorkload;
import org.geoshard.geo.TestCities;
import org.geoshard.geo.cells.CellCounts;
import org.geoshard.geo.cells.CellGrid;
import org.geoshard.geo.cells.CellRanges;
import org.geoshard.geo.contract.GeoHit;
import org.geoshard.geo.contract.GeoQuery;
import org.geoshard.geo.query.QueryGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * The same oracle comparison on a table range-partitioned by S2 cell into 3 partitions, with every
 * near query carrying its covering ({@code postgis.partition=cells:3}); and the covered query's
 * answer against the same query without the covering, on the same table: identical ids, order and
 * distances. The plans read only the partitions that own the covering's cells.
 */
class PostgisCellsOracleTest extends PostgisOracleTest {
  private static final String TABLE = "t_oracle_cells";

  @TempDir
  static Path dir;

  /** The properties describe the test's dataset, from which the partitions' bounds are computed. */
  @Override
  Properties properties() throws Exception {
    Properties p = LocalPostgis.properties(TABLE);
    StringBuilder tsv = new StringBuilder("geonameid\tname\tcountry\tlatitude\tlongitude\tpopulation\n");
    TestCities.FIVE.forEach(c -> tsv.append(c.geonameId()).append('\t').append(c.name()).append('\t')
        .append(c.country()).append('\t').append(c.latitude()).append('\t').append(c.longitude()).append('\t')
        .append(c.population()).append('\n'));
    p.setProperty(GeoSettings.CITIES, Files.writeString(dir.resolve("cities.tsv"), tsv.toString()).toString());
    p.setProperty(GeoSettings.SCALE, "0.02");
    p.setProperty("seed", "11");
    p.setProperty(CellPartitioning.PARTITION, "cells:3");
    // Level 9 (about 18 km cells): the five cities' restaurants span enough cells for 3 partitions.
    p.setProperty("geo.cells.level", "9");
    return p;
  }

  private PostgisDB open(boolean covering) throws Exception {
    Properties p = properties();
    p.setProperty(PostgisSettings.DROP, "false");
    p.setProperty("geo.cells.covering", Boolean.toString(covering));
    PostgisDB db = new PostgisDB();
    db.setProperties(p);
    db.init();
    return db;
  }

  /** The partitions that own the query's covering: the only ones the covered query reads. */
  @Override
  Set<String> expectedTargets(GeoQuery query) throws Exception {
    Properties p = properties();
    CellPartitioning cells = CellPartitioning.fromProperties(p);
    CellRanges ranges = cells.ranges(p);
    Set<String> owners = new HashSet<>();
    Arrays.stream(cells.grid().covering(query)).forEach(cell ->
        owners.add(CellPartitioning.partition(TABLE, ranges.rangeOf(cell))));
    assertThat(owners).hasSizeLessThan(3);
    return owners;
  }

  @Test
  void withoutTheCoveringTheExplainNamesEveryPartition() throws Exception {
    PostgisDB plain = open(false);
    try {
      List<GeoHit> hits = new ArrayList<>();
      assertThat(plain.near(GeoQuery.firstPage(19.93658, 50.06143, 20_000, 10), hits)).isEqualTo(Status.OK);
      assertThat(plain.explainLast().orElseThrow().targets()).containsExactlyInAnyOrder(
          CellPartitioning.partition(TABLE, 0), CellPartitioning.partition(TABLE, 1), CellPartitioning.partition(TABLE, 2));
    } finally {
      plain.cleanup();
    }
  }

  @Test
  void theCoveredQueryGivesExactlyTheAnswerOfTheUncoveredOne() throws Exception {
    Properties p = properties();
    GeoSettings geo = GeoSettings.fromProperties(p);
    Properties radii = new Properties();
    radii.setProperty("geo.radius.min", "200");
    radii.setProperty("geo.radius.max", "50000");
    QueryGenerator queries = new QueryGenerator(GeoWorkload.datasetOf(geo), GeoSettings.fromProperties(radii));
    PostgisDB covered = open(true);
    PostgisDB plain = open(false);
    try {
      SplittableRandom random = new SplittableRandom(99);
      int nonEmpty = 0;
      for (int i = 0; i < 400; i++) {
        GeoQuery basic = queries.basic(random);
        for (GeoQuery q : List.of(basic, basic.withFilter(queries.filter(random)), basic.withSkip(10))) {
          List<GeoHit> a = new ArrayList<>();
          List<GeoHit> b = new ArrayList<>();
          assertThat(covered.near(q, a)).isEqualTo(Status.OK);
          assertThat(plain.near(q, b)).isEqualTo(Status.OK);
          assertThat(a).as("answer of %s", q).isEqualTo(b);
          nonEmpty += a.isEmpty() ? 0 : 1;
        }
      }
      assertThat(nonEmpty).isGreaterThan(600);
    } finally {
      covered.cleanup();
      plain.cleanup();
    }
  }

  @Test
  void rowsAreSpreadAsTheRangesSayAndAQueryReadsOnlyThePartitionsOfItsCovering() throws Exception {
    Properties p = properties();
    CellPartitioning cells = CellPartitioning.fromProperties(p);
    CellRanges ranges = cells.ranges(p);
    CellGrid grid = cells.grid();
    try (Connection c = DriverManager.getConnection(LocalPostgis.URL, LocalPostgis.USER, LocalPostgis.PASSWORD)) {
      for (int i = 0; i < 3; i++) {
        try (ResultSet rs = c.createStatement().executeQuery(
            "SELECT count(*) FROM " + CellPartitioning.partition(TABLE, i))) {
          rs.next();
          assertThat(rs.getLong(1)).as("rows of partition %d", i).isEqualTo(ranges.restaurants(i)).isPositive();
        }
      }
      // Kraków, 20 km: its covering lies in one range, so one partition is read.
      GeoQuery krakow = GeoQuery.firstPage(19.93658, 50.06143, 20_000, 10);
      long[] covering = grid.covering(krakow);
      Set<Integer> owners = new HashSet<>();
      Arrays.stream(covering).forEach(cell -> owners.add(ranges.rangeOf(cell)));
      NearQuerySql sql = cells.near(TABLE, krakow);
      String plan = explain(c, sql);
      for (int i = 0; i < 3; i++) {
        assertThat(plan.contains(CellPartitioning.partition(TABLE, i) + "\""))
            .as("partition %d in the plan %s", i, plan).isEqualTo(owners.contains(i));
      }
      assertThat(owners).hasSizeLessThan(3);
      String unpruned = explain(c, NearQuerySql.of(TABLE, krakow));
      for (int i = 0; i < 3; i++) {
        assertThat(unpruned).contains(CellPartitioning.partition(TABLE, i) + "\"");
      }

      // The binding's sessions run one generic plan per statement: it still reads only the owners.
      cells.configure(c);
      StringBuilder prepare = new StringBuilder("PREPARE krakow AS ");
      int n = 0;
      for (char ch : sql.sql().toCharArray()) {
        if (ch == '?') {
          prepare.append('$').append(++n);
        } else {
          prepare.append(ch);
        }
      }
      try (java.sql.Statement s = c.createStatement()) {
        s.execute(prepare.toString());
        StringBuilder generic = new StringBuilder();
        try (ResultSet rs = s.executeQuery("EXPLAIN (ANALYZE, COSTS OFF) EXECUTE krakow("
            + sql.parameters().stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(", ")) + ")")) {
          while (rs.next()) {
            generic.append(rs.getString(1)).append('\n');
          }
        }
        assertThat(generic).as("generic plan %s", generic).contains("Subplans Removed: " + (3 - owners.size()));
        assertThat(generic.toString()).doesNotContain("Gather");
      }
    }
  }

  @Test
  void aTableOfTheOtherLayoutIsRefusedBeforeTheLoad() throws Exception {
    Properties p = LocalPostgis.properties(TABLE);
    p.setProperty(PostgisSettings.DROP, "false");
    PostgisDB db = new PostgisDB();
    db.setProperties(p);
    db.init();
    try {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> db.prepare(
              org.geoshard.harness.api.Preparable.Stage.BEFORE_LOAD,
                  java.util.Set.of(org.geoshard.geo.contract.GeoContract.RESTAURANTS), (name, work) -> {
                try {
                  work.run();
                } catch (Exception e) {
                  throw new DBException(e);
                }
              }))
          .isInstanceOf(DBException.class).hasMessageContaining("is partitioned by cell into 3 partitions")
          .hasMessageContaining("postgis.drop=true");
    } finally {
      db.cleanup();
    }
  }

  private static String explain(Connection c, NearQuerySql sql) throws Exception {
    try (PreparedStatement s = c.prepareStatement("EXPLAIN (FORMAT JSON) " + sql.sql())) {
      for (int i = 0; i < sql.parameters().size(); i++) {
        Object value = sql.parameters().get(i);
        if (value instanceof Long[] ids) {
          s.setArray(i + 1, c.createArrayOf("bigint", ids));
        } else {
          s.setObject(i + 1, value);
        }
      }
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        return rs.getString(1);
      }
    }
  }
}
