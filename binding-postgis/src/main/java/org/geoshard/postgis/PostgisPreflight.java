package org.geoshard.postgis;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.geoshard.harness.api.Preflight.Check;
import site.ycsb.DBException;

/**
 * What {@code bin/ycsb preflight postgis-geo} prints: server and PostGIS versions, the table, its GiST
 * index, its rows and {@code shared_buffers}. Reads only.
 */
final class PostgisPreflight {
  private final PostgisSettings settings;
  private final CellPartitioning cells;
  private final ServerQueries sql;

  PostgisPreflight(PostgisSettings settings, CellPartitioning cells, ServerQueries sql) {
    this.settings = settings;
    this.cells = cells;
    this.sql = sql;
  }

  List<Check> checks() throws DBException {
    List<Check> checks = new ArrayList<>();
    try {
      checks.add(Check.ok("server reached", settings.maskedUrl()));
      checks.add(Check.ok("server version", "PostgreSQL " + sql.string("SHOW server_version")));
      try {
        checks.add(Check.ok("PostGIS version", sql.string("SELECT postgis_lib_version()")));
      } catch (SQLException e) {
        checks.add(Check.fail("PostGIS version", "PostGIS is not installed in this database "
            + "(CREATE EXTENSION postgis): " + e.getMessage()));
      }
      String table = settings.table();
      if (!sql.relationExists(table)) {
        checks.add(Check.ok("table", table + " absent: a load creates it"));
      } else {
        checks.add(Check.ok("table", table + (cells.partitioned() ? ", partitioned by cell ranges" : "")));
        long gist = sql.scalar("SELECT count(*) FROM pg_indexes WHERE tablename = '" + table
            + "' AND indexdef ILIKE '%USING gist%'");
        long rows = sql.count(table);
        checks.add(gistIndex(table, gist, rows, gist > 0 && sql.relationExists(Schema.locationIndex(table))));
        checks.add(Check.ok("rows", Long.toString(rows)));
      }
      checks.add(Check.ok("shared_buffers", sql.string("SHOW shared_buffers")));
      return checks;
    } catch (SQLException e) {
      throw new DBException("Could not read " + settings.maskedUrl() + ": " + e.getMessage(), e);
    }
  }

  /**
   * The GiST index's check: ours (or another GiST index, counted), a warning when rows are there
   * without one (near queries scan the table), fine when the table is still empty.
   */
  static Check gistIndex(String table, long gistIndexes, long rows, boolean oursExists) {
    return gistIndexes > 0 ? Check.ok("GiST index", Schema.locationIndex(table)
        + (oursExists ? "" : " (another GiST index: " + gistIndexes + ")"))
        : rows > 0 ? Check.warn("GiST index", "none on " + table + ": near queries scan the table "
            + "(a load builds it after the last row)") : Check.ok("GiST index", "none yet: a load builds it");
  }
}
