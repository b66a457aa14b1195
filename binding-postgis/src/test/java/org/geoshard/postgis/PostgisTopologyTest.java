package org.geoshard.postgis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.geoshard.geo.contract.GeoContract;
import org.geoshard.harness.api.DataDeclaration;
import org.geoshard.harness.api.DataRole;
import org.geoshard.lastlocation.contract.LastLocationContract;
import org.junit.jupiter.api.Test;

class PostgisTopologyTest {
  private static PostgisTopology topology(String kvTable) throws Exception {
    Properties p = new Properties();
    p.setProperty(PostgisSettings.TABLE, "t_rest");
    p.setProperty("table", "not_this_one");  // the declaration says which key-value table: never the raw property
    DataDeclaration declared = new DataDeclaration(Set.of(DataRole.KEY_VALUE), kvTable, 0, null);
    return new PostgisTopology(PostgisSettings.fromProperties(p), CellPartitioning.NONE, null, declared);
  }

  @Test
  void describesTheRestaurantsTheDeclaredKeyValueTableOrHistory() throws Exception {
    PostgisTopology topology = topology("t_kv");
    assertThat(topology.tableOf(Set.of(GeoContract.RESTAURANTS))).isEqualTo("t_rest");
    assertThat(topology.tableOf(Set.of())).isEqualTo("t_rest");
    assertThat(topology.tableOf(Set.of(GeoContract.RESTAURANTS, DataRole.KEY_VALUE))).isEqualTo("t_rest");
    assertThat(topology.tableOf(Set.of(DataRole.KEY_VALUE))).isEqualTo("t_kv");
    assertThat(topology.tableOf(Set.of(LastLocationContract.HISTORY, LastLocationContract.LAST_KNOWN)))
        .isEqualTo(PostgisLastLocation.HISTORY);
  }

  @Test
  void theProbeCountsEveryTableTheBindingMayHold() throws Exception {
    assertThat(topology("t_kv").probedTables())
        .containsExactly("t_rest", "t_kv", PostgisLastLocation.HISTORY, PostgisLastLocation.LKL);
  }

  @Test
  void aKeyValueTableThatIsNoPlainSqlNameIsRefused() throws Exception {
    PostgisTopology topology = topology("usertable; drop");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> topology.tableOf(Set.of(DataRole.KEY_VALUE)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not a plain SQL name");
  }

  @Test
  void aLocalServerIsNamedByItsUrl() throws Exception {
    assertThat(topology("t_kv").localNodeName()).isEqualTo(LocalServer.nodeName(
        PostgisSettings.fromProperties(new Properties()).url()));
  }

  @Test
  void againstTheServerTheTopologyNamesItsVersionsAndTheTablesSize() throws Exception {
    Properties p = LocalPostgis.properties("t_topology_kv");
    PostgisSettings settings = PostgisSettings.fromProperties(p);
    try (LiveConnection live = new LiveConnection(() -> Connections.open(settings), settings.maskedUrl())) {
      ServerQueries sql = new ServerQueries(live);
      sql.execute("DROP TABLE IF EXISTS t_topology_kv_declared");
      sql.execute(Schema.createKeyValue("t_topology_kv_declared"));
      DataDeclaration declared = new DataDeclaration(Set.of(DataRole.KEY_VALUE), "t_topology_kv_declared", 0, null);
      PostgisTopology topology = new PostgisTopology(settings, CellPartitioning.NONE, sql, declared);
      Map<String, Object> described = topology.topology(Set.of(DataRole.KEY_VALUE));
      assertThat(described).containsEntry("kind", "postgresql").containsEntry("table", "t_topology_kv_declared")
          .containsEntry("rows", 0L).containsEntry("partition", "none").doesNotContainKey("locationIndex");
      assertThat((Long) described.get("tableBytes")).isPositive();
      assertThat(topology.localServerPids()).hasSizeLessThanOrEqualTo(1);
      sql.execute("DROP TABLE t_topology_kv_declared");
    }
  }
}
