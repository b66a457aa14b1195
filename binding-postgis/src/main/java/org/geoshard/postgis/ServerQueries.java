package org.geoshard.postgis;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The small statements that preparation, topology and preflight send on a binding instance's
 * connection: DDL, a number, a text, whether a relation exists, a table's rows or size. Each on a
 * statement of its own (none is prepared: they run a few times per phase, not per operation).
 *
 * <p>Not thread-safe, as its {@link LiveConnection}.
 */
final class ServerQueries {
  private final LiveConnection live;

  ServerQueries(LiveConnection live) {
    this.live = live;
  }

  void execute(String sql) throws SQLException {
    try (Statement s = live.get().createStatement()) {
      s.execute(sql);
    }
  }

  long scalar(String sql) throws SQLException {
    try (Statement s = live.get().createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  String string(String sql) throws SQLException {
    try (Statement s = live.get().createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getString(1);
    }
  }

  long count(String table) throws SQLException {
    return scalar("SELECT count(*) FROM " + table);
  }

  /** Whether a table or index of that name exists (in any schema). */
  boolean relationExists(String name) throws SQLException {
    return scalar("SELECT count(*) FROM pg_class WHERE relname = '" + name + "'") > 0;
  }

  /** Whether the PostGIS extension is installed in the connection's database. */
  boolean postgisInstalled() throws SQLException {
    try (Statement s = live.get().createStatement();
         ResultSet rs = s.executeQuery("SELECT 1 FROM pg_extension WHERE extname = 'postgis'")) {
      return rs.next();
    }
  }

  /** A relation's size summed over its partition tree ({@link #treeSize}). */
  long treeBytes(String sizeFunction, String relation) throws SQLException {
    return scalar(treeSize(sizeFunction, relation));
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
}
