package org.geoshard.postgis;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringReader;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.Vector;
import org.geoshard.geo.cells.CellRanges;
import org.geoshard.geo.contract.GeoContract;
import org.geoshard.geo.contract.GeoHit;
import org.geoshard.geo.contract.GeoQuery;
import org.geoshard.geo.contract.Restaurant;
import org.geoshard.harness.api.BatchOutcomes;
import org.geoshard.harness.api.DataRole;
import org.geoshard.harness.api.DescribesTopology;
import org.geoshard.harness.api.ExplainsOperations;
import org.geoshard.harness.api.ExplainsOperations.QueryExplain;
import org.geoshard.harness.api.ObservesServers;
import org.geoshard.harness.api.Preflight;
import org.geoshard.harness.api.ServerProbe;
import org.geoshard.harness.api.FailureLog;
import org.geoshard.harness.api.Preparable;
import org.geoshard.harness.api.ServerProcesses;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.lastlocation.LastLocationSettings;
import org.geoshard.lastlocation.contract.DelegatingLastLocation;
import org.geoshard.lastlocation.contract.LastLocationContract;
import org.geoshard.lastlocation.contract.LocationEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/**
 * Binding {@code postgis-geo}: the geo workload and YCSB's key-value operations on PostgreSQL with
 * PostGIS, one JDBC connection per client thread. Restaurants are loaded with COPY in batches of
 * {@code batchsize}; near queries use the KNN operator with {@code ST_DWithin} on geography.
 */
public final class PostgisDB extends DB
    implements GeoContract, DelegatingLastLocation, Preparable, DescribesTopology, BatchOutcomes, ExplainsOperations,
    ServerProcesses, ObservesServers, Preflight {
  private static final Logger LOG = LoggerFactory.getLogger(PostgisDB.class);
  /** Failed operations of every client thread, logged without flooding. */
  static final FailureLog FAILURES = new FailureLog(LOG);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long EXISTING_ROWS_SHOWN = 1_000_000;
  private static final TypeReference<Map<String, String>> FIELDS = new TypeReference<>() { };

  private PostgisSettings settings;
  private CellPartitioning cells;
  private NearQuerySql.Texts nearTexts;
  private LiveConnection live;
  private CopyBatch restaurants;
  /** Outside the harness (preparation, plain YCSB) nobody listens: batches still answer for themselves. */
  private BatchOutcomes.Listener batchOutcomes = (operation, ok, failed) -> { };
  private boolean reporting;
  private PostgisLastLocation lastLocation;
  private LastLocationSettings llSettings;
  /** The last near query this instance sent, for {@link #explainLast()}; null before the first. */
  private NearQuerySql lastNear;

  @Override
  public void batchOutcomeListener(BatchOutcomes.Listener listener) {
    this.batchOutcomes = listener;
    this.reporting = true;
  }

  @Override
  public void init() throws DBException {
    try {
      settings = PostgisSettings.fromProperties(getProperties());
      cells = CellPartitioning.fromProperties(getProperties());
      llSettings = LastLocationSettings.fromProperties(getProperties());
    } catch (ConfigException e) {
      throw new DBException(e.getMessage(), e);
    }
    nearTexts = new NearQuerySql.Texts(settings.table());
    live = new LiveConnection(this::openConfigured, settings.maskedUrl());
    restaurants = new CopyBatch("INSERT", settings.batchSize());
    try {
      lastLocation = new PostgisLastLocation(live, new CopyBatch("HISTORY_INSERT", llSettings.historyBatchSize()),
          batchOutcomes, llSettings.historySplit());
      if (!postgisInstalled()) {
        throw new DBException("PostGIS is not installed in the database of " + settings.maskedUrl()
            + ": run CREATE EXTENSION postgis there (as its owner or a superuser).");
      }
    } catch (SQLException e) {
      close();
      throw new DBException("Could not use " + settings.maskedUrl() + ": " + e.getMessage(), e);
    }
  }

  /** A new connection (also after a reconnect), with the session settings of the table's layout. */
  private Connection openConfigured() throws DBException {
    Connection connection = Connections.open(settings);
    try {
      cells.configure(connection);
    } catch (SQLException e) {
      try {
        connection.close();
      } catch (SQLException closing) {
        e.addSuppressed(closing);
      }
      throw new DBException("Could not set up a session on " + settings.maskedUrl() + ": " + e.getMessage(), e);
    }
    return connection;
  }

  private boolean postgisInstalled() throws SQLException {
    try (Statement s = live.get().createStatement();
         ResultSet rs = s.executeQuery("SELECT 1 FROM pg_extension WHERE extname = 'postgis'")) {
      return rs.next();
    }
  }

  /**
   * Writes the last partial batches. Under the harness their records' outcomes are reported and
   * counted, so a failed last batch is no failure of the cleanup itself; without a listener (plain
   * YCSB) it is, or it would go unnoticed.
   */
  @Override
  public void cleanup() throws DBException {
    try {
      boolean restaurantsWritten = restaurants == null || restaurants.size() == 0 || flush() == Status.OK;
      boolean eventsWritten = lastLocation == null || lastLocation.flush() == Status.OK;
      if (!reporting && !restaurantsWritten) {
        throw new DBException("The last batch of restaurants could not be written to " + settings.table() + ".");
      }
      if (!reporting && !eventsWritten) {
        throw new DBException("The last batch of events could not be written to " + PostgisLastLocation.HISTORY + ".");
      }
    } finally {
      close();
    }
  }

  private void close() {
    if (live != null) {
      live.close();
    }
  }

  // ---- geo contract

  @Override
  public Status insertRestaurant(Restaurant restaurant) {
    cells.appendRow(restaurant, restaurants.rows());
    return restaurants.full() ? flush() : restaurants.waiting();
  }

  /** Writes the buffered restaurants with one COPY; every record of the batch has its outcome. */
  private Status flush() {
    int expected = restaurants.size();
    String rows = restaurants.take();
    boolean written = false;
    try {
      long copied = live.copy().copyIn(cells.copySql(settings.table()), new StringReader(rows));
      written = copied == expected;
      if (!written) {
        FAILURES.failed("COPY into " + settings.table(), "wrote " + copied + " rows of " + expected, null);
      }
    } catch (SQLException | IOException e) {
      live.failed(e);
      FAILURES.failed("COPY of " + expected + " restaurants into " + settings.table(), e.getMessage(), null);
    }
    return restaurants.settle(batchOutcomes, written);
  }

  @Override
  public Status near(GeoQuery query, List<GeoHit> hits) {
    hits.clear();
    NearQuerySql sql = cells.near(nearTexts, query);
    lastNear = sql;
    try {
      PreparedStatement statement = statement(sql.sql());
      bind(statement, sql.parameters());
      try (ResultSet rs = statement.executeQuery()) {
        // By position, in NearQuerySql.ANSWER's order: a lookup by name costs a map probe per value.
        while (rs.next()) {
          Restaurant r = new Restaurant(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getInt(5),
              rs.getInt(6), rs.getInt(7), rs.getString(8), rs.getBoolean(9), rs.getDouble(10), rs.getDouble(11));
          hits.add(new GeoHit(r, rs.getDouble(12)));
        }
      }
      return Status.OK;
    } catch (SQLException e) {
      return failed("Near query", e);
    }
  }

  /** The last near query again, under {@code EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)}. */
  @Override
  public Optional<QueryExplain> explainLast() throws DBException {
    if (lastNear == null) {
      return Optional.empty();
    }
    try {
      PreparedStatement statement = statement("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + lastNear.sql());
      bind(statement, lastNear.parameters());
      try (ResultSet rs = statement.executeQuery()) {
        rs.next();
        return Optional.of(PlanExplain.parse(rs.getString(1)));
      }
    } catch (SQLException e) {
      live.failed(e);
      throw new DBException("Could not explain a near query: " + e.getMessage(), e);
    }
  }

  /**
   * The postmaster, when the server runs on this machine: the parent of this connection's backend
   * (a backend is the postmaster's child). Empty for a remote server or one whose processes this
   * machine cannot see (another container, another pid namespace).
   */
  @Override
  public List<Long> localServerPids() throws DBException {
    if (!LocalServer.isLocalUrl(settings.url())) {
      return List.of();
    }
    try {
      long backend = scalar("SELECT pg_backend_pid()");
      return LocalServer.postmasterOf(backend).map(List::of).orElse(List.of());
    } catch (SQLException e) {
      throw new DBException("Could not ask " + settings.maskedUrl() + " for its process: " + e.getMessage(), e);
    }
  }

  @Override
  public String localNodeName() {
    return LocalServer.nodeName(settings.url());
  }

  /** Every failed operation: the connection reconnects if it is lost, the log is rate-limited. */
  private Status failed(String what, Exception e) {
    live.failed(e);
    FAILURES.failed(what, e.getMessage(), null);
    return Status.ERROR;
  }

  private void bind(PreparedStatement statement, List<Object> parameters) throws SQLException {
    for (int i = 0; i < parameters.size(); i++) {
      Object value = parameters.get(i);
      if (value instanceof Long[] ids) {
        Array array = live.get().createArrayOf("bigint", ids);
        statement.setArray(i + 1, array);
      } else {
        statement.setObject(i + 1, value);
      }
    }
  }

  private PreparedStatement statement(String sql) throws SQLException {
    return live.statement(sql);
  }

  // ---- the last-location contract: this thread's operations object ----

  @Override
  public LastLocationContract lastLocation() {
    return lastLocation;
  }

  // ---- YCSB's key-value operations: one row per key, the fields as JSON

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    try {
      PreparedStatement s = statement("SELECT fields FROM " + checked(table) + " WHERE ycsb_key = ?");
      s.setString(1, key);
      try (ResultSet rs = s.executeQuery()) {
        if (!rs.next()) {
          return Status.NOT_FOUND;
        }
        Map<String, String> values = JSON.readValue(rs.getString(1), FIELDS);
        values.forEach((name, value) -> {
          if (fields == null || fields.contains(name)) {
            result.put(name, new StringByteIterator(value));
          }
        });
        return Status.OK;
      }
    } catch (SQLException | IOException e) {
      return failed("read of " + key, e);
    }
  }

  @Override
  public Status scan(String table, String startKey, int count, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    try {
      PreparedStatement s = statement("SELECT fields FROM " + checked(table)
          + " WHERE ycsb_key >= ? ORDER BY ycsb_key LIMIT ?");
      s.setString(1, startKey);
      s.setInt(2, count);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          HashMap<String, ByteIterator> row = new HashMap<>();
          Map<String, String> values = JSON.readValue(rs.getString(1), FIELDS);
          values.forEach((name, value) -> {
            if (fields == null || fields.contains(name)) {
              row.put(name, new StringByteIterator(value));
            }
          });
          result.add(row);
        }
      }
      return Status.OK;
    } catch (SQLException | IOException e) {
      return failed("scan from " + startKey, e);
    }
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    return write("UPDATE " + checked(table) + " SET fields = fields || ?::jsonb WHERE ycsb_key = ?", key, values, true);
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    return write("INSERT INTO " + checked(table) + " (fields, ycsb_key) VALUES (?::jsonb, ?)", key, values, false);
  }

  private Status write(String sql, String key, Map<String, ByteIterator> values, boolean mustExist) {
    try {
      Map<String, String> fields = new LinkedHashMap<>();
      values.forEach((name, value) -> fields.put(name, value.toString()));
      PreparedStatement s = statement(sql);
      s.setString(1, JSON.writeValueAsString(fields));
      s.setString(2, key);
      int rows = s.executeUpdate();
      return rows == 1 ? Status.OK : mustExist ? Status.NOT_FOUND : Status.ERROR;
    } catch (SQLException | IOException e) {
      return failed("write of " + key, e);
    }
  }

  @Override
  public Status delete(String table, String key) {
    try {
      PreparedStatement s = statement("DELETE FROM " + checked(table) + " WHERE ycsb_key = ?");
      s.setString(1, key);
      return s.executeUpdate() == 1 ? Status.OK : Status.NOT_FOUND;
    } catch (SQLException e) {
      return failed("delete of " + key, e);
    }
  }

  /** YCSB passes the table name from its properties: keep it a plain SQL name. */
  private static String checked(String table) {
    if (!table.matches("[A-Za-z_][A-Za-z0-9_]{0,62}")) {
      throw new IllegalArgumentException("YCSB table name '" + table + "' is not a plain SQL name.");
    }
    return table;
  }

  // ---- preparation and topology

  /**
   * Prepares the tables of the roles the loaded workload declares, and no other: a drop removes only
   * those (their row counts recorded and logged), the GiST index and the row count are the
   * restaurants' only when the workload loads restaurants.
   */
  @Override
  public void prepare(Stage stage, Set<DataRole> data, Steps steps) throws DBException {
    String table = settings.table();
    boolean geo = data.contains(GeoContract.RESTAURANTS);
    boolean lastLocation = data.contains(LastLocationContract.HISTORY) || data.contains(LastLocationContract.LAST_KNOWN);
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
        execute("ANALYZE " + t);
      }
      return Map.of("tables", tables);
    });
    steps.step("count rows", () -> {
      Map<String, Object> rows = new LinkedHashMap<>();
      long total = 0;
      for (String t : tables) {
        long n = count(t);
        rows.put(t, n);
        total += n;
      }
      return Map.of("rows", total, "perTable", rows);
    });
  }

  /** The tables of the given roles, in a fixed order (the binding serves three workloads, each with its own). */
  private List<String> tablesOf(Set<DataRole> data) {
    List<String> tables = new java.util.ArrayList<>();
    if (data.contains(GeoContract.RESTAURANTS)) {
      tables.add(settings.table());
    }
    if (data.contains(DataRole.KEY_VALUE)) {
      tables.add(checked(getProperties().getProperty("table", "usertable")));
    }
    if (data.contains(LastLocationContract.HISTORY)) {
      tables.add(PostgisLastLocation.HISTORY);
    }
    if (data.contains(LastLocationContract.LAST_KNOWN)) {
      tables.add(PostgisLastLocation.LKL);
    }
    return tables;
  }

  /** Drops the given tables (History's partitions with it), saying how many rows each held. */
  private Map<String, Object> dropTables(List<String> tables) throws SQLException {
    Map<String, Object> dropped = new LinkedHashMap<>();
    List<String> absent = new java.util.ArrayList<>();
    for (String t : tables) {
      if (!relationExists(t)) {
        absent.add(t);
        continue;
      }
      long rows = count(t);
      execute(Schema.drop(t) + (t.equals(PostgisLastLocation.HISTORY) ? " CASCADE" : ""));
      dropped.put(t, rows);
      LOG.info("Dropped table {} ({} rows) ({}=true).", t, String.format(java.util.Locale.ROOT, "%,d", rows),
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
        execute(ddl);
      }
    }
    if (data.contains(DataRole.KEY_VALUE)) {
      execute(Schema.createKeyValue(checked(getProperties().getProperty("table", "usertable"))));
    }
    if (data.contains(LastLocationContract.HISTORY) || data.contains(LastLocationContract.LAST_KNOWN)) {
      for (String ddl : PostgisLastLocation.createTables(llSettings.historySplit(), llSettings.nearQueries())) {
        execute(ddl);
      }
      // An index from an earlier preparation stays (preparation never drops what it did not create now).
      boolean kept = !llSettings.nearQueries() && relationExists(PostgisLastLocation.LKL_INDEX);
      details.put("historySplit", llSettings.historySplit().name().toLowerCase(java.util.Locale.ROOT));
      details.put("lklIndex", llSettings.nearQueries() ? "GiST on " + PostgisLastLocation.LKL + ".location"
          : kept ? "none built (no LKL_NEAR in the mix), but an earlier GiST index is kept: every upsert pays for"
              + " it; load with postgis.drop=true to go without"
          : "none: no LKL_NEAR in the mix (ll.read.proportion.near=0)");
    }
    return details;
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
    CellRanges ranges = cells.ranges(getProperties());
    for (String ddl : CellPartitioning.createTable(settings.table(), ranges)) {
      execute(ddl);
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
      long rows = scalar("SELECT count(*) FROM (SELECT 1 FROM " + table + " LIMIT " + (EXISTING_ROWS_SHOWN + 1) + ") r");
      if (rows > 0) {
        throw new DBException("Table '" + table + "' already holds "
            + (rows > EXISTING_ROWS_SHOWN ? "more than " + String.format(java.util.Locale.ROOT, "%,d", EXISTING_ROWS_SHOWN) : String.format(java.util.Locale.ROOT, "%,d", rows))
            + " rows: set " + PostgisSettings.DROP + "=true to load it afresh, or " + PostgisSettings.APPEND
            + "=true to add to it (a load split over several clients, each with its own insertstart and insertcount).");
      }
    }
    return Map.of("tables", tables, "rows", 0);
  }

  private Map<String, Object> indexDetails(String table) throws SQLException, DBException {
    Duration every = Duration.ofSeconds(Long.parseLong(getProperties().getProperty("status.interval", "10").trim()));
    if (every.isZero()) {
      execute(Schema.createLocationIndex(table));
    } else {
      try (IndexProgress progress = IndexProgress.start(Connections.open(settings), table, Schema.locationIndex(table),
          every, LOG::info)) {
        execute(Schema.createLocationIndex(table));
      }
    }
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("index", Schema.locationIndex(table));
    details.put("indexBytes", scalar(treeSize("pg_relation_size", Schema.locationIndex(table))));
    details.put("rows", count(table));
    return details;
  }

  /** The one server, sampled on a connection of the probe's own (this instance's is not kept). */
  @Override
  public List<ServerProbe> serverProbes() throws DBException {
    String kvTable = checked(getProperties().getProperty("table", "usertable"));
    return List.of(new PostgisProbe(settings, List.of(settings.table(), kvTable, PostgisLastLocation.HISTORY,
        PostgisLastLocation.LKL)));
  }

  @Override
  public Map<String, Object> topology() throws DBException {
    return topology(Set.of(GeoContract.RESTAURANTS));
  }

  /** The server, with the table of the data the workload declares: the restaurants, {@code table}, or History. */
  @Override
  public Map<String, Object> topology(Set<DataRole> data) throws DBException {
    String table = data.contains(GeoContract.RESTAURANTS) || data.isEmpty() ? settings.table()
        : data.contains(DataRole.KEY_VALUE) ? checked(getProperties().getProperty("table", "usertable"))
        : PostgisLastLocation.HISTORY;
    try {
      Map<String, Object> topology = new LinkedHashMap<>();
      topology.put("kind", "postgresql");
      topology.put("serverVersion", string("SHOW server_version"));
      topology.put("postgis", string("SELECT postgis_lib_version()"));
      topology.put("url", settings.maskedUrl());
      topology.put("partition", cells.partitioned() ? "cells:" + cells.partitions() : "none");
      if (relationExists(table)) {
        topology.put("table", table);
        topology.put("rows", count(table));
        topology.put("tableBytes", scalar(treeSize("pg_total_relation_size", table)));
        if (table.equals(settings.table())) {
          topology.put("locationIndex", relationExists(Schema.locationIndex(table)));
        }
      }
      return topology;
    } catch (SQLException e) {
      throw new DBException("Could not describe " + settings.maskedUrl() + ": " + e.getMessage(), e);
    }
  }

  /**
   * What {@code bin/ycsb preflight postgis-geo} prints: server and PostGIS versions, the table, its GiST
   * index, its rows and {@code shared_buffers}. Reads only.
   */
  @Override
  public List<Preflight.Check> preflight() throws DBException {
    List<Preflight.Check> checks = new ArrayList<>();
    try {
      checks.add(Preflight.Check.ok("server reached", settings.maskedUrl()));
      checks.add(Preflight.Check.ok("server version", "PostgreSQL " + string("SHOW server_version")));
      try {
        checks.add(Preflight.Check.ok("PostGIS version", string("SELECT postgis_lib_version()")));
      } catch (SQLException e) {
        checks.add(Preflight.Check.fail("PostGIS version", "PostGIS is not installed in this database "
            + "(CREATE EXTENSION postgis): " + e.getMessage()));
      }
      String table = settings.table();
      if (!relationExists(table)) {
        checks.add(Preflight.Check.ok("table", table + " absent: a load creates it"));
      } else {
        checks.add(Preflight.Check.ok("table", table + (cells.partitioned() ? ", partitioned by cell ranges" : "")));
        long gist = scalar("SELECT count(*) FROM pg_indexes WHERE tablename = '" + table
            + "' AND indexdef ILIKE '%USING gist%'");
        long rows = count(table);
        checks.add(gist > 0 ? Preflight.Check.ok("GiST index", Schema.locationIndex(table)
            + (relationExists(Schema.locationIndex(table)) ? "" : " (another GiST index: " + gist + ")"))
            : rows > 0 ? Preflight.Check.warn("GiST index", "none on " + table + ": near queries scan the table "
                + "(a load builds it after the last row)") : Preflight.Check.ok("GiST index", "none yet: a load builds it"));
        checks.add(Preflight.Check.ok("rows", Long.toString(rows)));
      }
      checks.add(Preflight.Check.ok("shared_buffers", string("SHOW shared_buffers")));
      return checks;
    } catch (SQLException e) {
      throw new DBException("Could not read " + settings.maskedUrl() + ": " + e.getMessage(), e);
    }
  }

  private void execute(String sql) throws SQLException {
    try (Statement s = live.get().createStatement()) {
      s.execute(sql);
    }
  }

  private long count(String table) throws SQLException {
    return scalar("SELECT count(*) FROM " + table);
  }

  /**
   * The query of a relation's size summed over its partition tree (a partitioned table or index has
   * no storage of its own). pg_partition_tree returns no row at all for a plain table or index, so
   * the relation itself is added (UNION drops it again when the tree already holds it).
   */
  static String treeSize(String sizeFunction, String relation) {
    return "SELECT coalesce(sum(" + sizeFunction + "(relid)), 0) FROM (SELECT relid FROM pg_partition_tree('"
        + relation + "') UNION SELECT '" + relation + "'::regclass) r";
  }

  /** Whether a table or index of that name exists (in any schema). */
  private boolean relationExists(String name) throws SQLException {
    return scalar("SELECT count(*) FROM pg_class WHERE relname = '" + name + "'") > 0;
  }

  private long scalar(String sql) throws SQLException {
    try (Statement s = live.get().createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private String string(String sql) throws SQLException {
    try (Statement s = live.get().createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getString(1);
    }
  }
}
