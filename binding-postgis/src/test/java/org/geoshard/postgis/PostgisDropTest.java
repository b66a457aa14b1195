package org.geoshard.postgis;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.geoshard.geo.GeoWorkload;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.output.RunResult;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.Runner;
import org.geoshard.lastlocation.LastLocationWorkload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.workloads.CoreWorkload;

/**
 * A load's drop ({@code postgis.drop=true}) touches only the tables of the workload being loaded
 * (issue 31: a last-location load once dropped the geo workload's restaurants). Against the real
 * PostGIS server of bin/postgis; skipped when it is not running.
 */
class PostgisDropTest {
  @TempDir
  Path dir;

  private static long count(String table) throws Exception {
    try (Connection c = DriverManager.getConnection(LocalPostgis.URL, LocalPostgis.USER, LocalPostgis.PASSWORD);
         Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM " + table)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private JsonNode load(Properties p, String folder) throws Exception {
    p.setProperty("results.dir", dir.resolve(folder).toString());
    RunResult result = new Runner(RunSettings.fromProperties(Phase.LOAD, p, "drop"), p,
        new Binding("postgis-geo", PostgisDB.class), dir).execute();
    assertThat(result.hasFailures()).as(folder + " failed").isFalse();
    return new ObjectMapper().readTree(result.folder().resolve("run.json").toFile());
  }

  private static JsonNode step(JsonNode record, String name) {
    for (JsonNode step : record.get("preparation")) {
      if (step.get("step").asText().equals(name)) {
        return step;
      }
    }
    throw new AssertionError("no preparation step '" + name + "' in " + record.get("preparation"));
  }

  private static List<String> names(JsonNode array) {
    List<String> names = new ArrayList<>();
    array.forEach(n -> names.add(n.asText()));
    return names;
  }

  @Test
  void aLastLocationLoadWithDropLeavesTheGeoTableWhole() throws Exception {
    Properties geo = LocalPostgis.properties("t_drop_geo");
    geo.setProperty("workload", GeoWorkload.class.getName());
    geo.setProperty("geo.scale", "0.0005");
    geo.setProperty("threadcount", "2");
    load(geo, "geo");
    long restaurants = count("t_drop_geo");
    assertThat(restaurants).isPositive();

    // The same properties (postgis.table names the geo table) and the drop option, for the location stream.
    Properties ll = LocalPostgis.properties("t_drop_geo");
    ll.setProperty("workload", LastLocationWorkload.class.getName());
    ll.setProperty("geo.cities", "");
    ll.setProperty("ll.users", "200");
    ll.setProperty("ll.cells", "100");
    ll.setProperty("ll.history.peruser", "2");
    ll.setProperty("threadcount", "2");
    JsonNode first = load(ll, "ll-1");
    long events = count(PostgisLastLocation.HISTORY);
    long users = count(PostgisLastLocation.LKL);
    assertThat(events).isPositive();
    JsonNode record = load(ll, "ll-2");

    assertThat(count("t_drop_geo")).as("the geo table after a last-location load with the drop").isEqualTo(restaurants);
    assertThat(names(record.get("data"))).containsExactly("last-location history", "last-location last known");
    JsonNode drop = step(record, "drop tables");
    assertThat(names(drop.get("tables"))).containsExactly(PostgisLastLocation.HISTORY, PostgisLastLocation.LKL);
    assertThat(drop.at("/dropped/" + PostgisLastLocation.HISTORY).asLong()).isEqualTo(events);
    assertThat(drop.at("/dropped/" + PostgisLastLocation.LKL).asLong()).isEqualTo(users);
    assertThat(names(step(record, "create tables").get("tables")))
        .containsExactly(PostgisLastLocation.HISTORY, PostgisLastLocation.LKL);
    // Preparation after the load counts the tables it loaded, not the restaurants; no GiST index of theirs.
    JsonNode counted = step(record, "count rows");
    assertThat(names(fieldNames(counted.get("perTable"))))
        .containsExactly(PostgisLastLocation.HISTORY, PostgisLastLocation.LKL);
    assertThat(counted.get("rows").asLong()).isEqualTo(count(PostgisLastLocation.HISTORY) + count(PostgisLastLocation.LKL));
    assertThat(record.get("preparation").toString()).doesNotContain("create GiST index").doesNotContain("t_drop_geo");
    assertThat(first.get("preparation").toString()).doesNotContain("t_drop_geo");
    // run.json describes the table the workload loaded, not postgis.table's restaurants.
    assertThat(record.at("/topology/table").asText()).isEqualTo(PostgisLastLocation.HISTORY);
    assertThat(record.at("/topology/rows").asLong()).isEqualTo(count(PostgisLastLocation.HISTORY));

    // YCSB's own workload drops and creates its key-value table only.
    Properties core = LocalPostgis.properties("t_drop_geo");
    core.setProperty("workload", CoreWorkload.class.getName());
    core.setProperty("recordcount", "50");
    JsonNode kv = load(core, "core");
    assertThat(names(step(kv, "drop tables").get("tables"))).containsExactly("t_drop_geo_kv");
    assertThat(count("t_drop_geo_kv")).isEqualTo(50);
    assertThat(kv.at("/topology/table").asText()).isEqualTo("t_drop_geo_kv");
    assertThat(kv.at("/topology/rows").asLong()).isEqualTo(50);
    assertThat(kv.at("/topology").has("locationIndex")).as("no GiST index to speak of").isFalse();
    assertThat(count("t_drop_geo")).isEqualTo(restaurants);
    assertThat(count(PostgisLastLocation.HISTORY)).isPositive();
  }

  private static JsonNode fieldNames(JsonNode object) {
    com.fasterxml.jackson.databind.node.ArrayNode names = new ObjectMapper().createArrayNode();
    object.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
