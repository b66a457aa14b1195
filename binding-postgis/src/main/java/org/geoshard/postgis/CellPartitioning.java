package org.geoshard.postgis;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.geoshard.geo.cells.CellCounts;
import org.geoshard.geo.cells.CellGrid;
import org.geoshard.geo.cells.CellRanges;
import org.geoshard.geo.contract.GeoQuery;
import org.geoshard.geo.contract.Restaurant;
import org.geoshard.geo.contract.RestaurantCells;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.config.PropertyReader;

/**
 * {@code postgis.partition=cells:N}: the restaurants table range-partitioned by {@code cell} (the S2
 * cell id at {@code geo.cells.level}) into N partitions balanced by restaurant count, as a ranged
 * cell shard key spreads a collection over N shards; near queries name the cells of their covering
 * ({@code geo.cells.covering}) so that the planner reads only the partitions that hold them, as mongos
 * sends a query only to the shards that own them. Immutable.
 *
 * @param partitions N, or 0 for an ordinary table
 * @param covering whether near queries carry the covering predicate
 */
record CellPartitioning(int partitions, CellGrid grid, boolean covering) {
  static final String PARTITION = "postgis.partition";
  static final String COPY_SQL_COLUMNS = CopyRows.COPY_SQL_COLUMNS.replace(")", ", cell)");

  static final CellPartitioning NONE = new CellPartitioning(0, null, false);

  static CellPartitioning fromProperties(Properties properties) throws ConfigException {
    PropertyReader in = new PropertyReader(properties);
    String value = in.string(PARTITION, "none").trim();
    if (value.equals("none")) {
      return NONE;
    }
    int n = 0;
    if (value.matches("cells:[0-9]{1,4}")) {
      n = Integer.parseInt(value.substring("cells:".length()));
    }
    if (n < 1) {
      in.problem("Property '" + PARTITION + "' must be 'none' or 'cells:N' with N from 1 to 9999 partitions, but is '"
          + value + "'.");
    }
    in.throwIfProblems();
    // geo.cells.* are the geo workload's properties: its catalog reports their problems.
    RestaurantCells cells = RestaurantCells.fromProperties(properties);
    return new CellPartitioning(n, cells.grid(), cells.covering());
  }

  boolean partitioned() {
    return partitions > 0;
  }

  /**
   * Sets up a session for the partitioned table, as the unpartitioned table's sessions run by
   * default: one generic plan per prepared statement, without parallel workers.
   *
   * <ul>
   *   <li>No parallel workers: a near query reads tens to thousands of rows, but over partitions the
   *       planner picks a parallel append and starts worker processes for every query, which costs
   *       several times the query (measured here: 69 instead of 358 queries/s with 2 threads).</li>
   *   <li>Generic plans: PostgreSQL prunes the partitions of a generic plan when the executor starts
   *       ("Subplans Removed"), but costs that plan as if it read every partition, so it would keep
   *       planning the covered query anew at every execution (25 ms instead of 10 ms per query here).</li>
   * </ul>
   * The unpartitioned table's plan has no parallel workers, and its generic plan costs what its custom
   * plans cost, so PostgreSQL settles on it by itself.
   */
  void configure(Connection connection) throws SQLException {
    if (partitioned()) {
      try (Statement s = connection.createStatement()) {
        s.execute("SET max_parallel_workers_per_gather = 0");
        s.execute("SET plan_cache_mode = force_generic_plan");
      }
    }
  }

  /** The COPY statement of the restaurants. */
  String copySql(String table) {
    return "COPY " + table + " " + (partitioned() ? COPY_SQL_COLUMNS : CopyRows.COPY_SQL_COLUMNS) + " FROM STDIN";
  }

  /** One COPY row: the restaurant's columns, and its cell where the table is partitioned. */
  void appendRow(Restaurant r, StringBuilder out) {
    CopyRows.append(r, out);
    if (partitioned()) {
      // CopyRows ends the row; the cell is the last column.
      out.setLength(out.length() - 1);
      out.append('\t').append(grid.cellOf(r.longitude(), r.latitude())).append('\n');
    }
  }

  /** The near query, with the covering predicate where the table is partitioned and it is wanted. */
  NearQuerySql near(String table, GeoQuery query) {
    return near(new NearQuerySql.Texts(table), query);
  }

  /** As {@link #near(String, GeoQuery)}, the statement's text taken from the binding instance's {@code texts}. */
  NearQuerySql near(NearQuerySql.Texts texts, GeoQuery query) {
    long[] cells = partitioned() && covering ? grid.covering(query) : null;
    return NearQuerySql.of(texts, query, cells);
  }

  /**
   * The ranges of the partitions, from the restaurants per cell the geo contract counts in the dataset
   * the properties describe (every restaurant generated once: about a second per million).
   */
  CellRanges ranges(Properties properties) throws ConfigException {
    CellCounts counts = RestaurantCells.counted(properties, grid);
    try {
      return CellRanges.balanced(counts, partitions);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(e.getMessage());
    }
  }

  /** The partitioned table and its partitions, as idempotent DDL. */
  static List<String> createTable(String table, CellRanges ranges) {
    List<String> ddl = new ArrayList<>();
    ddl.add("CREATE EXTENSION IF NOT EXISTS postgis");
    // A partitioned table's key must hold the partition column; the cell is a function of the id.
    ddl.add("CREATE TABLE IF NOT EXISTS " + table + " (\n  id bigint NOT NULL,\n" + Schema.RESTAURANT_COLUMNS
        + ",\n  cell bigint NOT NULL,\n  PRIMARY KEY (id, cell)) PARTITION BY RANGE (cell)");
    for (int i = 0; i < ranges.size(); i++) {
      String from = i == 0 ? "MINVALUE" : Long.toString(ranges.lowerBound(i));
      String to = i == ranges.size() - 1 ? "MAXVALUE" : Long.toString(ranges.lowerBound(i + 1));
      ddl.add("CREATE TABLE IF NOT EXISTS " + partition(table, i) + " PARTITION OF " + table
          + " FOR VALUES FROM (" + from + ") TO (" + to + ")");
    }
    return ddl;
  }

  static String partition(String table, int i) {
    return table + "_cells_" + i;
  }

  /** What run.json's preparation records about the partitions. */
  Map<String, Object> describe(CellRanges ranges) {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("partition", "cells:" + partitions);
    details.put("level", grid.level());
    details.put("covering", covering);
    details.put("lowerBounds", ranges.lowerBounds());
    details.put("restaurantsPerPartition", ranges.restaurantsPerRange());
    return details;
  }

  /**
   * Null when the table is missing or laid out as asked; otherwise the sentence that says why the
   * load cannot go on (CREATE TABLE IF NOT EXISTS would keep the other layout and COPY would fail).
   */
  String layoutProblem(Connection connection, String table) throws SQLException {
    try (PreparedStatement s = connection.prepareStatement(
        "SELECT c.relkind = 'p', (SELECT count(*) FROM pg_inherits i WHERE i.inhparent = c.oid)"
            + " FROM pg_class c WHERE c.relname = ? AND pg_table_is_visible(c.oid)")) {
      s.setString(1, table);
      try (ResultSet rs = s.executeQuery()) {
        if (!rs.next()) {
          return null;
        }
        boolean isPartitioned = rs.getBoolean(1);
        long existing = rs.getLong(2);
        if (isPartitioned == partitioned() && (!partitioned() || existing == partitions)) {
          return null;
        }
        String has = isPartitioned ? "is partitioned by cell into " + existing + " partitions" : "is not partitioned";
        return "Table " + table + " " + has + ", but " + PARTITION + " asks for "
            + (partitioned() ? "cells:" + partitions : "none") + ": drop it (postgis.drop=true) or use another postgis.table.";
      }
    }
  }
}
