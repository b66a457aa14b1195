package org.geoshard.postgis;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.geoshard.geo.contract.GeoContract;
import org.geoshard.harness.api.DataDeclaration;
import org.geoshard.harness.api.DataRole;
import org.geoshard.harness.api.ExpectedData;
import org.geoshard.harness.api.Preflight.Before;
import org.geoshard.harness.api.Preflight.Check;
import org.geoshard.lastlocation.contract.LastLocationContract;
import site.ycsb.DBException;

/**
 * What {@code bin/ycsb preflight postgis-geo} prints: server and PostGIS versions, the restaurants table
 * as the catalog shows it (partitioning, its GiST index on {@code location}), the rows of each declared
 * table against the scenario's dataset, what the next run would refuse ({@link PostgisRunChecks}, the
 * run's own sentences) and {@code shared_buffers}. Reads only; no line comes from a property alone.
 */
final class PostgisPreflight {
  private final PostgisSettings settings;
  private final CellPartitioning cells;
  private final LiveConnection live;
  private final ServerQueries sql;
  private final DataDeclaration declaration;
  private final PostgisRunChecks runChecks;

  PostgisPreflight(PostgisSettings settings, CellPartitioning cells, LiveConnection live, DataDeclaration declaration,
      PostgisRunChecks runChecks) {
    this.settings = settings;
    this.cells = cells;
    this.live = live;
    this.sql = new ServerQueries(live);
    this.declaration = declaration;
    this.runChecks = runChecks;
  }

  List<Check> checks(Before before) throws DBException {
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
      Set<DataRole> roles = declaration.roles();
      if (roles.contains(GeoContract.RESTAURANTS)) {
        TableCatalog table = TableCatalog.read(live, settings.table());
        if (!table.exists()) {
          checks.add(Check.ok("table", settings.table() + " absent: a load creates it"));
        } else {
          checks.add(partitioning(table));
          checks.add(gistIndex(table, settings.allowSeqScan()));
        }
      }
      List<String> refusals = before == Before.RUN ? runChecks.refusals(roles) : List.of();
      ExpectedData expected = settings.append() ? declaration.expected().asLowerBound() : declaration.expected();
      for (Map.Entry<DataRole, String> counted : countedTables(roles).entrySet()) {
        String table = counted.getValue();
        long rows = sql.relationExists(table) ? sql.count(table) : 0;
        if (rows == 0 && !refusals.isEmpty()) {
          continue;  // before a run: its refusal below says it
        }
        checks.add(expected.countCheck("rows", table, counted.getKey(), "rows", rows, before));
      }
      for (String refusal : refusals) {
        checks.add(Check.fail("the run would refuse", refusal));
      }
      checks.add(Check.ok("shared_buffers", sql.string("SHOW shared_buffers")));
      return checks;
    } catch (SQLException e) {
      throw new DBException("Could not read " + settings.maskedUrl() + ": " + e.getMessage(), e);
    }
  }

  /**
   * The tables whose rows are compared with the dataset, by role: LastKnownLocation only where the scenario
   * counts it (not the insert-only tables).
   */
  private Map<DataRole, String> countedTables(Set<DataRole> roles) {
    Map<DataRole, String> tables = RoleTables.of(settings, declaration, roles);
    if (declaration.expected().of(LastLocationContract.LAST_KNOWN) == null) {
      tables.remove(LastLocationContract.LAST_KNOWN);
    }
    return tables;
  }

  /** The table's partitioning from the catalog, against {@code postgis.partition}. */
  Check partitioning(TableCatalog table) {
    String found = table.table() + ", " + table.partitioning();
    String problem = runChecks.partitioningProblem(table);
    if (problem != null) {
      return Check.fail("table", problem);
    }
    if (!cells.partitioned() && table.partitioned()) {
      return Check.warn("table", found + ", but " + CellPartitioning.PARTITION + " is 'none': its near queries name no cells");
    }
    if (cells.partitioned() && table.partitions() != cells.partitions()) {
      return Check.warn("table", found + ", but " + CellPartitioning.PARTITION + " is 'cells:" + cells.partitions()
          + "': the run measures the partitions there are");
    }
    return Check.ok("table", found);
  }

  /**
   * The GiST index on {@code location}: a missing one is a warning before a load (which builds it), and
   * a failure before a run (the run refuses it) unless {@code postgis.allowSeqScan=true}.
   */
  static Check gistIndex(TableCatalog table, boolean allowSeqScan) {
    if (table.gistOnLocation()) {
      return Check.ok("GiST index", "on " + table.table() + "." + TableCatalog.LOCATION);
    }
    String none = "none on " + table.table() + "." + TableCatalog.LOCATION;
    return allowSeqScan ? Check.warn("GiST index", none + ": near queries scan the table ("
        + PostgisSettings.ALLOW_SEQ_SCAN + "=true)") : Check.warn("GiST index", none + " (a load builds it after the last row)");
  }
}
