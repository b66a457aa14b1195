package org.geoshard.postgis;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * What PostgreSQL's catalog says of one table: whether it exists, how it is partitioned
 * ({@code pg_partitioned_table}, {@code pg_inherits}) and whether a GiST index covers a column
 * ({@code pg_index}, {@code pg_am}). Read-only; what preflight prints and a run refuses come from here,
 * never from the properties that asked for them.
 *
 * @param exists the table exists (in the connection's search path)
 * @param partitionKey the partition key as {@code pg_get_partkeydef} gives it ("RANGE (cell)"), or null for a plain table
 * @param partitions the table's direct partitions
 * @param gistOnLocation a GiST index (or partitioned GiST index) covers the {@code location} column
 */
record TableCatalog(String table, boolean exists, String partitionKey, long partitions, boolean gistOnLocation) {
  static final String LOCATION = "location";

  static TableCatalog read(LiveConnection live, String table) throws SQLException {
    Long oid = oid(live, table);
    if (oid == null) {
      return new TableCatalog(table, false, null, 0, false);
    }
    String key = null;
    try (PreparedStatement s = live.get().prepareStatement(
        "SELECT pg_get_partkeydef(partrelid) FROM pg_partitioned_table WHERE partrelid = ?")) {
      s.setLong(1, oid);
      try (ResultSet rs = s.executeQuery()) {
        if (rs.next()) {
          key = rs.getString(1);
        }
      }
    }
    long partitions = count(live, "SELECT count(*) FROM pg_inherits WHERE inhparent = ?", oid);
    long gist = count(live, "SELECT count(*) FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid"
        + " JOIN pg_am am ON am.oid = ic.relam JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)"
        + " WHERE i.indrelid = ? AND am.amname = 'gist' AND a.attname = '" + LOCATION + "'", oid);
    return new TableCatalog(table, true, key, partitions, gist > 0);
  }

  boolean partitioned() {
    return partitionKey != null;
  }

  /** "a plain table", "partitioned by RANGE (cell) into 3 partitions". */
  String partitioning() {
    return partitioned() ? "partitioned by " + partitionKey + " into " + partitions + " partitions" : "a plain table";
  }

  private static Long oid(LiveConnection live, String table) throws SQLException {
    try (PreparedStatement s = live.get().prepareStatement("SELECT to_regclass(?)::oid")) {
      s.setString(1, table);
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        long oid = rs.getLong(1);
        return rs.wasNull() ? null : oid;
      }
    }
  }

  private static long count(LiveConnection live, String sql, long oid) throws SQLException {
    try (PreparedStatement s = live.get().prepareStatement(sql)) {
      s.setLong(1, oid);
      try (ResultSet rs = s.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }
}
