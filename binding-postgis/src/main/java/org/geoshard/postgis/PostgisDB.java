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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import org.geoshard.geo.cells.CellRanges;
import org.geoshard.geo.contract.GeoContract;
import org.geoshard.geo.contract.GeoHit;
import org.geoshard.geo.contract.GeoQuery;
import org.geoshard.geo.contract.Restaurant;
import org.geoshard.harness.api.DescribesTopology;
import org.geoshard.harness.api.Preparable;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.lastlocation.LastLocationSettings;
import org.geoshard.lastlocation.contract.DelegatingLastLocation;
import org.geoshard.lastlocation.contract.LastLocationContract;
import org.geoshard.lastlocation.contract.LocationEvent;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;
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
public final class PostgisDB extends DB implements GeoContract, DelegatingLastLocation, Preparable, DescribesTopology {
  private static final Logger LOG = LoggerFactory.getLogger(PostgisDB.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<Map<String, String>> FIELDS = new TypeReference<>() { };

  private PostgisSettings settings;
  private CellPartitioning cells;
  private Connection connection;
  private CopyManager copy;
  private final StringBuilder copyBuffer = new StringBuilder(1 << 16);
  private int buffered;
  private final Map<String, PreparedStatement> statements = new HashMap<>();
  private PostgisLastLocation lastLocation;
  private LastLocationSettings llSettings;

  @Override
  public void init() throws DBException {
    try {
      settings = PostgisSettings.fromProperties(getProperties());
      cells = CellPartitioning.fromProperties(getProperties());
      llSettings = LastLocationSettings.fromProperties(getProperties());
    } catch (ConfigException e) {
      throw new DBException(e.getMessage(), e);
    }
    connection = Connections.open(settings);
    try {
      copy = connection.unwrap(PGConnection.class).getCopyAPI();
      cells.configure(connection);
      lastLocation = new PostgisLastLocation(connection, copy, this::uncheckedStatement, llSettings.historyBatchSize(),
          llSettings.historySplit());
      if (!postgisInstalled()) {
        throw new DBException("PostGIS is not installed in the database of " + settings.maskedUrl()
            + ": run CREATE EXTENSION postgis there (as its owner or a superuser).");
      }
    } catch (SQLException e) {
      close();
      throw new DBException("Could not use " + settings.maskedUrl() + ": " + e.getMessage(), e);
    }
  }

  private boolean postgisInstalled() throws SQLException {
    try (Statement s = connection.createStatement();
         ResultSet rs = s.executeQuery("SELECT 1 FROM pg_extension WHERE extname = 'postgis'")) {
      return rs.next();
    }
  }

  @Override
  public void cleanup() throws DBException {
    try {
      if (buffered > 0 && flush() != Status.OK) {
        throw new DBException("The last batch of restaurants could not be written to " + settings.table() + ".");
      }
      if (lastLocation != null && lastLocation.flush() != Status.OK) {
        throw new DBException("The last batch of events could not be written to " + PostgisLastLocation.HISTORY + ".");
      }
    } finally {
      close();
    }
  }

  private void close() {
    statements.values().forEach(s -> {
      try {
        s.close();
      } catch (SQLException e) {
        LOG.debug("closing a statement: {}", e.getMessage());
      }
    });
    statements.clear();
    try {
      if (connection != null) {
        connection.close();
      }
    } catch (SQLException e) {
      LOG.debug("closing the connection: {}", e.getMessage());
    }
  }

  // ---- geo contract

  @Override
  public Status insertRestaurant(Restaurant restaurant) {
    cells.appendRow(restaurant, copyBuffer);
    buffered++;
    return buffered >= settings.batchSize() ? flush() : Status.BATCHED_OK;
  }

  private Status flush() {
    int expected = buffered;
    String rows = copyBuffer.toString();
    copyBuffer.setLength(0);
    buffered = 0;
    try {
      long copied = copy.copyIn(cells.copySql(settings.table()), new StringReader(rows));
      if (copied != expected) {
        LOG.warn("COPY into {} wrote {} rows of {}.", settings.table(), copied, expected);
        return Status.ERROR;
      }
      return Status.OK;
    } catch (SQLException | IOException e) {
      LOG.warn("COPY of {} restaurants into {} failed: {}", expected, settings.table(), e.getMessage());
      return Status.ERROR;
    }
  }

  @Override
  public Status near(GeoQuery query, List<GeoHit> hits) {
    hits.clear();
    NearQuerySql sql = cells.near(settings.table(), query);
    try {
      PreparedStatement statement = statement(sql.sql());
      bind(statement, sql.parameters());
      try (ResultSet rs = statement.executeQuery()) {
        while (rs.next()) {
          Restaurant r = new Restaurant(rs.getLong("id"), rs.getString("name"), rs.getString("city"),
              rs.getString("cuisine"), rs.getInt("opened"), rs.getInt("rating"), rs.getInt("reviews"),
              rs.getString("pricing"), rs.getBoolean("outside_area"), rs.getDouble("lon"), rs.getDouble("lat"));
          hits.add(new GeoHit(r, rs.getDouble("distance")));
        }
      }
      return Status.OK;
    } catch (SQLException e) {
      LOG.warn("Near query failed: {}", e.getMessage());
      return Status.ERROR;
    }
  }

  private void bind(PreparedStatement statement, List<Object> parameters) throws SQLException {
    for (int i = 0; i < parameters.size(); i++) {
      Object value = parameters.get(i);
      if (value instanceof Long[] ids) {
        Array array = connection.createArrayOf("bigint", ids);
        statement.setArray(i + 1, array);
      } else {
        statement.setObject(i + 1, value);
      }
    }
  }

  private PreparedStatement statement(String sql) throws SQLException {
    PreparedStatement statement = statements.get(sql);
    if (statement == null) {
      statement = connection.prepareStatement(sql);
      statements.put(sql, statement);
    }
    return statement;
  }

  // ---- the last-location contract: this thread's operations object ----

  @Override
  public LastLocationContract lastLocation() {
    return lastLocation;
  }

  private PreparedStatement uncheckedStatement(String sql) {
    try {
      return statement(sql);
    } catch (SQLException e) {
      throw new IllegalStateException("Could not prepare: " + e.getMessage(), e);
    }
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
      LOG.warn("read {} failed: {}", key, e.getMessage());
      return Status.ERROR;
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
      LOG.warn("scan from {} failed: {}", startKey, e.getMessage());
      return Status.ERROR;
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
      LOG.warn("write of {} failed: {}", key, e.getMessage());
      return Status.ERROR;
    }
  }

  @Override
  public Status delete(String table, String key) {
    try {
      PreparedStatement s = statement("DELETE FROM " + checked(table) + " WHERE ycsb_key = ?");
      s.setString(1, key);
      return s.executeUpdate() == 1 ? Status.OK : Status.NOT_FOUND;
    } catch (SQLException e) {
      LOG.warn("delete of {} failed: {}", key, e.getMessage());
      return Status.ERROR;
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

  @Override
  public void prepare(Stage stage, Steps steps) throws DBException {
    String table = settings.table();
    String kvTable = checked(getProperties().getProperty("table", "usertable"));
    if (stage == Stage.BEFORE_LOAD) {
      List<String> tables = List.of(table, kvTable, PostgisLastLocation.HISTORY, PostgisLastLocation.LKL);
      if (settings.drop()) {
        steps.step("drop tables", () -> {
          execute(Schema.drop(table));
          execute(Schema.drop(kvTable));
          for (String ddl : PostgisLastLocation.dropTables()) {
            execute(ddl);
          }
          return Map.of("tables", tables);
        });
      }
      checkLayout(table);
      if (cells.partitioned()) {
        steps.step("create cell partitions", this::createCellPartitions);
      }
      // The tables of every workload this binding serves: each is small until a load fills it.
      steps.step("create tables", () -> {
        for (String ddl : Schema.createRestaurants(table)) {
          execute(ddl);
        }
        execute(Schema.createKeyValue(kvTable));
        for (String ddl : PostgisLastLocation.createTables(llSettings.historySplit())) {
          execute(ddl);
        }
        return Map.of("tables", tables, "historySplit", llSettings.historySplit().name().toLowerCase(java.util.Locale.ROOT));
      });
      if (!settings.indexAfterLoad()) {
        steps.step("create GiST index", () -> indexDetails(table));
      }
      return;
    }
    if (settings.indexAfterLoad()) {
      steps.step("create GiST index", () -> indexDetails(table));
    }
    steps.step("analyze", () -> {
      execute("ANALYZE " + table);
      return Map.of();
    });
    steps.step("count rows", () -> Map.of("rows", count(table)));
  }

  private void checkLayout(String table) throws DBException {
    String problem;
    try {
      problem = cells.layoutProblem(connection, table);
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

  private Map<String, Object> indexDetails(String table) throws SQLException {
    execute(Schema.createLocationIndex(table));
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("index", Schema.locationIndex(table));
    // Summed over the partition tree: a partitioned index has no storage of its own.
    details.put("indexBytes", scalar("SELECT sum(pg_relation_size(relid)) FROM pg_partition_tree('"
        + Schema.locationIndex(table) + "')"));
    details.put("rows", count(table));
    return details;
  }

  @Override
  public Map<String, Object> topology() throws DBException {
    try {
      Map<String, Object> topology = new LinkedHashMap<>();
      topology.put("kind", "postgresql");
      topology.put("serverVersion", string("SHOW server_version"));
      topology.put("postgis", string("SELECT postgis_lib_version()"));
      topology.put("url", settings.maskedUrl());
      topology.put("partition", cells.partitioned() ? "cells:" + cells.partitions() : "none");
      String table = settings.table();
      if (scalar("SELECT count(*) FROM pg_class WHERE relname = '" + table + "'") > 0) {
        topology.put("table", table);
        topology.put("rows", count(table));
        topology.put("tableBytes", scalar("SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree('" + table + "')"));
        topology.put("locationIndex",
            scalar("SELECT count(*) FROM pg_class WHERE relname = '" + Schema.locationIndex(table) + "'") > 0);
      }
      return topology;
    } catch (SQLException e) {
      throw new DBException("Could not describe " + settings.maskedUrl() + ": " + e.getMessage(), e);
    }
  }

  private void execute(String sql) throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.execute(sql);
    }
  }

  private long count(String table) throws SQLException {
    return scalar("SELECT count(*) FROM " + table);
  }

  private long scalar(String sql) throws SQLException {
    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private String string(String sql) throws SQLException {
    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getString(1);
    }
  }
}
