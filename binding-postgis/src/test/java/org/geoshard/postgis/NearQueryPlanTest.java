package org.geoshard.postgis;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.geoshard.geo.GeoSettings;
import org.geoshard.geo.GeoWorkload;
import org.geoshard.geo.contract.GeoHit;
import org.geoshard.geo.contract.GeoQuery;
import org.geoshard.geo.contract.Restaurant;
import org.geoshard.geo.dataset.RestaurantDataset;
import org.geoshard.geo.query.QueryGenerator;
import org.geoshard.harness.api.Preparable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * The near query's plan on a real PostGIS: the GiST index delivers the rows nearest first (an index
 * scan with an {@code Order By}) and the scan stops after the page, instead of fetching every row in
 * the radius and sorting them; and ties at the page edge are still broken by id.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NearQueryPlanTest {
  private static final String TABLE = "t_plan";
  /** Restaurants at one point, stored with descending ids so the heap order is not the id order. */
  private static final long TIED_FIRST_ID = 10_000_000;
  private static final int TIED = 30;
  private static final double TIED_LON = -70.0;
  private static final double TIED_LAT = -40.0;
  private static final ObjectMapper JSON = new ObjectMapper();

  private PostgisDB db;
  private Connection sql;
  private QueryGenerator generator;

  @BeforeAll
  void load() throws Exception {
    Properties p = LocalPostgis.properties(TABLE);
    // About 27,700 restaurants around every bundled city, spread as the full dataset is (a few dense
    // clusters alone mislead PostGIS's statistics into expecting a handful of rows in a dense radius).
    Properties dataProperties = new Properties();
    dataProperties.setProperty("geo.scale", "0.002");
    RestaurantDataset dataset = GeoWorkload.datasetOf(GeoSettings.fromProperties(dataProperties));
    db = new PostgisDB();
    db.setProperties(p);
    db.init();
    Preparable.Steps run = (name, work) -> {
      try {
        work.run();
      } catch (Exception e) {
        throw new DBException(e);
      }
    };
    db.prepare(Preparable.Stage.BEFORE_LOAD, java.util.Set.of(org.geoshard.geo.contract.GeoContract.RESTAURANTS), run);
    for (long k = 0; k < dataset.size(); k++) {
      assertThat(db.insertRestaurant(dataset.restaurant(k))).isIn(Status.OK, Status.BATCHED_OK);
    }
    for (long id = TIED_FIRST_ID + TIED - 1; id >= TIED_FIRST_ID; id--) {
      Restaurant tied = new Restaurant(id, "Tied " + id, "Nowhere", "Vegan", 2000, 3, 10, "$", false, TIED_LON, TIED_LAT);
      assertThat(db.insertRestaurant(tied)).isIn(Status.OK, Status.BATCHED_OK);
    }
    db.cleanup();
    db = new PostgisDB();
    p.setProperty(PostgisSettings.DROP, "false");
    db.setProperties(p);
    db.init();
    db.prepare(Preparable.Stage.AFTER_LOAD, java.util.Set.of(org.geoshard.geo.contract.GeoContract.RESTAURANTS), run);
    Properties geo = new Properties();
    geo.setProperty("geo.radius.min", "5000");
    geo.setProperty("geo.radius.max", "50000");
    generator = new QueryGenerator(dataset, GeoSettings.fromProperties(geo));
    sql = DriverManager.getConnection(LocalPostgis.URL, LocalPostgis.USER, LocalPostgis.PASSWORD);
  }

  @AfterAll
  void close() throws Exception {
    if (sql != null) {
      sql.close();
    }
    if (db != null) {
      db.cleanup();
    }
  }

  /** Both plans PostgreSQL may run a prepared statement with: one per set of values, and the generic one. */
  @ParameterizedTest
  @ValueSource(strings = {"force_custom_plan", "force_generic_plan"})
  void everyKindOfNearQueryIsAnIndexOrderedScanThatStopsAfterThePage(String planCacheMode) throws Exception {
    SplittableRandom random = new SplittableRandom(19);
    GeoQuery shanghai = GeoQuery.firstPage(121.45806, 31.22222, 40_000, 10);
    List<GeoQuery> queries = new ArrayList<>(List.of(shanghai, shanghai.withSkip(10),
        shanghai.withFilter(generator.filter(random)), shanghai.withMinDistance(500, Set.of(1L, 2L))));
    for (int i = 0; i < 5; i++) {
      queries.add(generator.basic(random));
    }
    for (GeoQuery q : queries) {
      JsonNode scan = locationScan(explain(NearQuerySql.of(TABLE, q), planCacheMode), q);
      assertThat(scan.path("Order By").asText()).as("order of the scan for %s (%s)", q, planCacheMode).contains("<->");
      assertThat(scan.path("Actual Rows").asLong()).as("rows the index handed out for %s (%s)", q, planCacheMode)
          .isLessThanOrEqualTo(q.skip() + q.limit() + 1L);
    }
  }

  @Test
  void theOldOrderByDistanceAndIdMadePostgresqlSortTheWholeRadius() throws Exception {
    GeoQuery shanghai = GeoQuery.firstPage(121.45806, 31.22222, 40_000, 10);
    NearQuerySql twoStage = NearQuerySql.of(TABLE, shanghai);
    // The single-stage form this class replaced: the same rows, ordered by distance and id at once.
    String single = twoStage.sql()
        .replace("SELECT " + NearQuerySql.ANSWER + " FROM (\n", "")
        .replace("\nFETCH FIRST ? ROWS WITH TIES) nearest\nORDER BY knn, id", ", r.id");
    List<Object> parameters = new ArrayList<>(twoStage.parameters());
    parameters.remove(parameters.size() - 2);
    JsonNode scan = tableScan(explain(new NearQuerySql(single, parameters), "force_generic_plan"), shanghai);
    assertThat(scan.path("Order By").isMissingNode()).as("a scan without order").isTrue();
    assertThat(scan.path("Actual Rows").asLong()).as("every restaurant in the radius").isGreaterThan(100);
  }

  @Test
  void tiesAtThePageEdgeAreBrokenByIdWhateverOrderTheIndexReturnsThem() {
    GeoQuery around = GeoQuery.firstPage(TIED_LON, TIED_LAT, 5_000, 10);
    List<Long> ids = LongStream.range(TIED_FIRST_ID, TIED_FIRST_ID + TIED).boxed().toList();
    assertThat(near(around)).containsExactlyElementsOf(ids.subList(0, 10));
    assertThat(near(around.withSkip(10))).containsExactlyElementsOf(ids.subList(10, 20));
    assertThat(near(around.withSkip(25))).containsExactlyElementsOf(ids.subList(25, 30));
  }

  private List<Long> near(GeoQuery q) {
    List<GeoHit> hits = new ArrayList<>();
    assertThat(db.near(q, hits)).isEqualTo(Status.OK);
    return hits.stream().map(h -> h.restaurant().id()).collect(Collectors.toList());
  }

  /** The one scan of the restaurants' location index in the plan. */
  private static JsonNode locationScan(JsonNode plan, GeoQuery q) {
    JsonNode scan = tableScan(plan, q);
    assertThat(scan.path("Node Type").asText()).as("plan of %s:%n%s", q, plan.toPrettyString()).isEqualTo("Index Scan");
    assertThat(scan.path("Index Name").asText()).isEqualTo(Schema.locationIndex(TABLE));
    return scan;
  }

  /** The one scan of the restaurants in the plan. */
  private static JsonNode tableScan(JsonNode plan, GeoQuery q) {
    List<JsonNode> scans = new ArrayList<>();
    collect(plan, scans);
    assertThat(scans).as("scans of %s in the plan of %s:%n%s", TABLE, q, plan.toPrettyString()).hasSize(1);
    return scans.get(0);
  }

  private static void collect(JsonNode node, List<JsonNode> scans) {
    if (TABLE.equals(node.path("Relation Name").asText())) {
      scans.add(node);
    }
    for (JsonNode child : node.path("Plans")) {
      collect(child, scans);
    }
  }

  /**
   * {@code EXPLAIN ANALYZE} of the query as a server-side prepared statement, so that the plan cache
   * mode decides between the custom and the generic plan as it does for the binding's statements.
   */
  private JsonNode explain(NearQuerySql query, String planCacheMode) throws SQLException, java.io.IOException {
    StringBuilder text = new StringBuilder();
    int placeholder = 0;
    for (char c : query.sql().toCharArray()) {
      text.append(c == '?' ? "$" + ++placeholder : String.valueOf(c));
    }
    String values = query.parameters().stream().map(NearQueryPlanTest::literal).collect(Collectors.joining(", "));
    try (Statement s = sql.createStatement()) {
      s.execute("SET plan_cache_mode = " + planCacheMode);
      s.execute("DEALLOCATE ALL");
      s.execute("PREPARE near AS " + text);
      try (ResultSet rs = s.executeQuery("EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE near(" + values + ")")) {
        rs.next();
        return JSON.readTree(rs.getString(1)).get(0).get("Plan");
      }
    }
  }

  private static String literal(Object value) {
    if (value instanceof Long[] ids) {
      return "ARRAY[" + java.util.Arrays.stream(ids).map(String::valueOf).collect(Collectors.joining(",")) + "]::bigint[]";
    }
    if (value instanceof String s) {
      return "'" + s.replace("'", "''") + "'";
    }
    if (value instanceof Double d) {
      return String.format(Locale.ROOT, "%.17g", d);
    }
    return String.valueOf(value);
  }
}
