package org.geoshard.postgis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.geoshard.geo.contract.GeoContract;
import org.geoshard.harness.api.DataDeclaration;
import org.geoshard.harness.api.DataRole;
import org.geoshard.harness.api.Preparable.Stage;
import org.geoshard.harness.api.Preparable.Steps;
import org.geoshard.lastlocation.contract.LastLocationContract;
import org.geoshard.lastlocation.contract.LocationStream;
import org.junit.jupiter.api.Test;
import site.ycsb.DBException;

class PostgisPreparationTest {
  private static final Set<DataRole> EVERY_ROLE = Set.of(LastLocationContract.LAST_KNOWN, DataRole.KEY_VALUE,
      LastLocationContract.HISTORY, GeoContract.RESTAURANTS);

  private static PostgisPreparation preparation(Properties p, String kvTable, LiveConnection live) throws Exception {
    DataDeclaration declared = new DataDeclaration(Set.of(DataRole.KEY_VALUE), kvTable, 0, null);
    return new PostgisPreparation(PostgisSettings.fromProperties(p), CellPartitioning.fromProperties(p), live,
        LocationStream.fromProperties(p), declared, p);
  }

  private static Steps recording(Map<String, Map<String, Object>> details) {
    return (name, work) -> {
      try {
        details.put(name, work.run());
      } catch (DBException e) {
        throw e;
      } catch (Exception e) {
        throw new DBException(e);
      }
    };
  }

  @Test
  void theTablesOfTheRolesInAFixedOrderTheKeyValueTableTheDeclarations() throws Exception {
    Properties p = new Properties();
    p.setProperty(PostgisSettings.TABLE, "t_rest");
    p.setProperty("table", "not_this_one");
    PostgisPreparation preparation = preparation(p, "t_declared_kv", null);
    assertThat(preparation.tablesOf(EVERY_ROLE))
        .containsExactly("t_rest", "t_declared_kv", PostgisLastLocation.HISTORY, PostgisLastLocation.LKL);
    assertThat(preparation.tablesOf(Set.of(LastLocationContract.HISTORY))).containsExactly(PostgisLastLocation.HISTORY);
    assertThat(preparation.tablesOf(Set.of(new DataRole("someone else's")))).isEmpty();
  }

  @Test
  void aKeyValueTableThatIsNoPlainSqlNameIsRefused() throws Exception {
    PostgisPreparation preparation = preparation(new Properties(), "kv; DROP TABLE x", null);
    assertThatThrownBy(() -> preparation.tablesOf(Set.of(DataRole.KEY_VALUE)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not a plain SQL name");
  }

  @Test
  void theSentencesOfTheLastKnownLocationsIndex() {
    assertThat(PostgisPreparation.lklIndex(true, false)).isEqualTo("GiST on ll_lkl.location");
    assertThat(PostgisPreparation.lklIndex(false, false)).isEqualTo("none: no LKL_NEAR in the mix (ll.read.proportion.near=0)");
    assertThat(PostgisPreparation.lklIndex(false, true)).isEqualTo("none built (no LKL_NEAR in the mix), but an earlier"
        + " GiST index is kept: every upsert pays for it; load with postgis.drop=true to go without");
  }

  @Test
  void aTableWithRowsIsRefusedInOneSentenceCountingUpToAMillion() {
    assertThat(PostgisPreparation.existingRows("t", 1234)).isEqualTo("Table 't' already holds 1,234 rows: set"
        + " postgis.drop=true to load it afresh, or postgis.append=true to add to it (a load split over several"
        + " clients, each with its own insertstart and insertcount).");
    assertThat(PostgisPreparation.existingRows("t", 1_000_001)).startsWith("Table 't' already holds more than 1,000,000 rows:");
    assertThat(PostgisPreparation.existingRows("t", 1_000_000)).startsWith("Table 't' already holds 1,000,000 rows:");
  }

  @Test
  void againstTheServerTheDeclaredKeyValueTableIsCreatedCheckedCountedAndDropped() throws Exception {
    Properties p = LocalPostgis.properties("t_prep");
    p.remove(PostgisSettings.DROP);
    PostgisSettings settings = PostgisSettings.fromProperties(p);
    try (LiveConnection live = new LiveConnection(() -> Connections.open(settings), settings.maskedUrl())) {
      ServerQueries sql = new ServerQueries(live);
      sql.execute("DROP TABLE IF EXISTS t_prep_declared");
      PostgisPreparation preparation = preparation(p, "t_prep_declared", live);
      Map<String, Map<String, Object>> details = new LinkedHashMap<>();
      preparation.prepare(Stage.BEFORE_LOAD, Set.of(DataRole.KEY_VALUE), recording(details));
      assertThat(details).containsOnlyKeys("create tables", "check for rows");
      assertThat(sql.relationExists("t_prep_declared")).isTrue();
      assertThat(sql.relationExists("t_prep_kv")).as("the raw 'table' property is not read").isFalse();

      sql.execute("INSERT INTO t_prep_declared (ycsb_key, fields) VALUES ('k', '{}')");
      assertThatThrownBy(() -> preparation.prepare(Stage.BEFORE_LOAD, Set.of(DataRole.KEY_VALUE), recording(details)))
          .isInstanceOf(DBException.class).hasMessage(PostgisPreparation.existingRows("t_prep_declared", 1));

      details.clear();
      preparation.prepare(Stage.AFTER_LOAD, Set.of(DataRole.KEY_VALUE), recording(details));
      assertThat(details).containsOnlyKeys("analyze", "count rows");
      assertThat(details.get("count rows")).containsEntry("rows", 1L)
          .containsEntry("perTable", Map.of("t_prep_declared", 1L));

      p.setProperty(PostgisSettings.DROP, "true");
      details.clear();
      preparation(p, "t_prep_declared", live).prepare(Stage.BEFORE_LOAD, Set.of(DataRole.KEY_VALUE), recording(details));
      assertThat(details.get("drop tables")).containsEntry("dropped", Map.of("t_prep_declared", 1L));
      assertThat(sql.count("t_prep_declared")).isZero();
      sql.execute("DROP TABLE t_prep_declared");
    }
  }

  @Test
  void theIndexBuildSaysHowFarItIsEveryStatusIntervalAndDescribesTheIndex() throws Exception {
    Properties p = LocalPostgis.properties("t_prep_index");
    p.setProperty(PostgisSettings.STATUS_INTERVAL, "1");
    p.setProperty(PostgisSettings.INDEX_WHEN, "before");
    PostgisSettings settings = PostgisSettings.fromProperties(p);
    try (LiveConnection live = new LiveConnection(() -> Connections.open(settings), settings.maskedUrl())) {
      Map<String, Map<String, Object>> details = new LinkedHashMap<>();
      preparation(p, "usertable", live).prepare(Stage.BEFORE_LOAD, Set.of(GeoContract.RESTAURANTS), recording(details));
      assertThat(details.get("create GiST index")).containsEntry("index", "t_prep_index_location_gist")
          .containsEntry("rows", 0L);
      assertThat((Long) details.get("create GiST index").get("indexBytes")).isPositive();
    }
  }
}
