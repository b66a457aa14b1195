package org.geoshard.postgis;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.geoshard.geo.cells.CellRanges;
import org.geoshard.geo.contract.GeoContract;
import org.geoshard.harness.api.DataDeclaration;
import org.geoshard.harness.api.DataRole;
import org.geoshard.harness.api.Preparable.Stage;
import org.geoshard.harness.api.Preparable.Steps;
import org.geoshard.lastlocation.contract.LastLocationContract;
import org.geoshard.lastlocation.contract.LocationStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.DBException;

/**
 * The preparation of the tables of the roles a workload declares, and no others, each step timed by
 * the harness: before the load a drop ({@code postgis.drop}), the cell partitions
 * ({@code postgis.partition}), the tables, the refusal of rows already there and the GiST index when
 * built first; after it the GiST index, ANALYZE and the row counts. The restaurants table is
 * {@code postgis.table}, the key-value table the declaration's, the last-location tables
 * {@link PostgisLastLocation}'s.
 *
 * <p>One per binding instance, on its connection; not thread-safe.
 */
final class PostgisPreparation {
  /** PostgisDB's logger: the sentences of a preparation read as they always did. */
  private static final Logger LOG = LoggerFactory.getLogger(PostgisDB.class);
  private static final long EXISTING_ROWS_SHOWN = 1_000_000;

  private final PostgisSettings settings;
  private final CellPartitioning cells;
  private final LiveConnection live;
  private final ServerQueries sql;
  private final LocationStream stream;
  private final DataDeclaration declaration;
  /** The run's properties, for the geo contract's count of restaurants per cell. */
  private final Properties properties;

  PostgisPreparation(PostgisSettings settings, CellPartitioning cells, LiveConnection live, LocationStream stream,
      DataDeclaration declaration, Properties properties) {
    this.settings = settings;
    this.cells = cells;
    this.live = live;
    this.sql = new ServerQueries(live);
    this.stream = stream;
    this.declaration = declaration;
    this.properties = properties;
  }

  /**
   * Prepares the tables of the roles the loaded workload declares, and no other: a drop removes only
   * those (their row counts recorded and logged), the GiST index and the row count are the
   * restaurants' only when the workload loads restaurants.
   */
  void prepare(Stage stage, Set<DataRole> data, Steps steps) throws DBException {
    String table = settings.table();
    boolean geo = data.contains(GeoContract.RESTAURANTS);
    List<String> tables = tablesOf(data);
    if (tables.isEmpty()) {
      return;  // nothing this binding serves
    }
    if (stage == Stage.BEFORE_LOAD) {
      if (settings.drop()) {
        steps.step("drop tables", () -> dropTables(tables));
      }
      if (geo) {
        checkLayout(table);
        if (cells.partitioned()) {
          steps.step("create cell partitions", this::createCellPartitions);
        }
      }
      steps.step("create tables", () -> createTables(data, tables));
      if (!settings.drop() && !settings.append()) {
        steps.step("check for rows", () -> refuseExistingRows(tables));
      }
      if (geo && !settings.indexAfterLoad()) {
        steps.step("create GiST index", () -> indexDetails(table));
      }
      return;
    }
    if (geo && settings.indexAfterLoad()) {
      steps.step("create GiST index", () -> indexDetails(table));
    }
    steps.step("analyze", () -> {
      for (String t : tables) {
        sql.execute("ANALYZE " + t);
      }
      return Map.of("tables", tables);
    });
    steps.step("count rows", () -> {
      Map<String, Object> rows = new LinkedHashMap<>();
      long total = 0;
      for (String t : tables) {
        long n = sql.count(t);
        rows.put(t, n);
        total += n;
      }
      return Map.of("rows", total, "perTable", rows);
    });
  }

  /** The tables of the given roles, in a fixed order ({@link RoleTables}). */
  List<String> tablesOf(Set<DataRole> data) {
    return new ArrayList<>(RoleTables.of(settings, declaration, data).values());
  }

  /** Drops the given tables (History's partitions with it), saying how many rows each held. */
  private Map<String, Object> dropTables(List<String> tables) throws SQLException {
    Map<String, Object> dropped = new LinkedHashMap<>();
    List<String> absent = new ArrayList<>();
    for (String t : tables) {
      if (!sql.relationExists(t)) {
        absent.add(t);
        continue;
      }
      long rows = sql.count(t);
      sql.execute(Schema.drop(t) + (t.equals(PostgisLastLocation.HISTORY) ? " CASCADE" : ""));
      dropped.put(t, rows);
      LOG.info("Dropped table {} ({} rows) ({}=true).", t, String.format(Locale.ROOT, "%,d", rows),
          PostgisSettings.DROP);
    }
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("tables", tables);
    details.put("dropped", dropped);
    details.put("absent", absent);
    return details;
  }

  private Map<String, Object> createTables(Set<DataRole> data, List<String> tables) throws SQLException {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("tables", tables);
    if (data.contains(GeoContract.RESTAURANTS)) {
      for (String ddl : Schema.createRestaurants(settings.table())) {
        sql.execute(ddl);
      }
    }
    if (data.contains(DataRole.KEY_VALUE)) {
      sql.execute(Schema.createKeyValue(PostgisOperations.checked(declaration.keyValueTable())));
    }
    if (data.contains(LastLocationContract.HISTORY) || data.contains(LastLocationContract.LAST_KNOWN)) {
      for (String ddl : PostgisLastLocation.createTables(stream.historySplit(), stream.nearQueries())) {
        sql.execute(ddl);
      }
      // An index from an earlier preparation stays (preparation never drops what it did not create now).
      boolean kept = !stream.nearQueries() && sql.relationExists(PostgisLastLocation.LKL_INDEX);
      details.put("historySplit", stream.historySplit().name().toLowerCase(Locale.ROOT));
      details.put("lklIndex", lklIndex(stream.nearQueries(), kept));
    }
    return details;
  }

  /** What run.json says of {@code ll_lkl}'s GiST index: built, or why not (and whether an earlier one stays). */
  static String lklIndex(boolean nearQueries, boolean earlierKept) {
    return nearQueries ? "GiST on " + PostgisLastLocation.LKL + ".location"
        : earlierKept ? "none built (no LKL_NEAR in the mix), but an earlier GiST index is kept: every upsert pays for"
            + " it; load with postgis.drop=true to go without"
        : "none: no LKL_NEAR in the mix (ll.read.proportion.near=0)";
  }

  private void checkLayout(String table) throws DBException {
    String problem;
    try {
      problem = cells.layoutProblem(live.get(), table);
    } catch (SQLException e) {
      throw new DBException("Could not inspect " + table + ": " + e.getMessage(), e);
    }
    if (problem != null) {
      throw new DBException(problem);
    }
  }

  private Map<String, Object> createCellPartitions() throws Exception {
    CellRanges ranges = cells.ranges(properties);
    for (String ddl : CellPartitioning.createTable(settings.table(), ranges)) {
      sql.execute(ddl);
    }
    return cells.describe(ranges);
  }

  /**
   * Loading into rows already there fails on duplicate keys (or doubles History): said in one sentence
   * before the load, rather than as failed batches during it.
   */
  private Map<String, Object> refuseExistingRows(List<String> tables) throws SQLException, DBException {
    for (String table : tables) {
      // Counting stops at a million: the answer is "too many" either way, and a full count takes long.
      long rows = sql.scalar("SELECT count(*) FROM (SELECT 1 FROM " + table + " LIMIT " + (EXISTING_ROWS_SHOWN + 1)
          + ") r");
      if (rows > 0) {
        throw new DBException(existingRows(table, rows));
      }
    }
    return Map.of("tables", tables, "rows", 0);
  }

  /** The sentence that refuses a load into a table that already holds rows (counted up to a million and one). */
  static String existingRows(String table, long rows) {
    return "Table '" + table + "' already holds "
        + (rows > EXISTING_ROWS_SHOWN ? "more than " + String.format(Locale.ROOT, "%,d", EXISTING_ROWS_SHOWN)
            : String.format(Locale.ROOT, "%,d", rows))
        + " rows: set " + PostgisSettings.DROP + "=true to load it afresh, or " + PostgisSettings.APPEND
        + "=true to add to it (a load split over several clients, each with its own insertstart and insertcount).";
  }

  private Map<String, Object> indexDetails(String table) throws SQLException, DBException {
    if (settings.statusInterval().isZero()) {
      sql.execute(Schema.createLocationIndex(table));
    } else {
      try (IndexProgress progress = IndexProgress.start(Connections.open(settings), table, Schema.locationIndex(table),
          settings.statusInterval(), LOG::info)) {
        sql.execute(Schema.createLocationIndex(table));
      }
    }
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("index", Schema.locationIndex(table));
    details.put("indexBytes", sql.treeBytes("pg_relation_size", Schema.locationIndex(table)));
    details.put("rows", sql.count(table));
    return details;
  }
}
