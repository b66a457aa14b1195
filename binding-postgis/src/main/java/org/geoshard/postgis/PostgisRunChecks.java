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
import org.geoshard.lastlocation.contract.LastLocationContract;

/**
 * What a PostGIS run refuses before its threads start, each in one sentence, read from the catalog:
 * the restaurants table missing, not partitioned as {@code postgis.partition} says (every near query
 * would fail), without its GiST index on {@code location} (every near query would scan the table;
 * {@code postgis.allowSeqScan=true} measures that on purpose), and a table that holds nothing when the
 * run reads loaded data. {@code bin/ycsb preflight} prints the same sentences: one source for both.
 */
final class PostgisRunChecks {
  private final PostgisSettings settings;
  private final CellPartitioning cells;
  private final LiveConnection live;
  private final ServerQueries sql;
  private final DataDeclaration declaration;

  PostgisRunChecks(PostgisSettings settings, CellPartitioning cells, LiveConnection live, DataDeclaration declaration) {
    this.settings = settings;
    this.cells = cells;
    this.live = live;
    this.sql = new ServerQueries(live);
    this.declaration = declaration;
  }

  List<String> refusals(Set<DataRole> data) throws SQLException {
    List<String> refusals = new ArrayList<>();
    boolean onlyInserts = declaration.expected().runOnlyInserts();
    for (Map.Entry<DataRole, String> declared : RoleTables.of(settings, declaration, data).entrySet()) {
      DataRole role = declared.getKey();
      String table = declared.getValue();
      String where = "Table " + table + " at " + settings.maskedUrl();
      if (role.equals(GeoContract.RESTAURANTS)) {
        TableCatalog catalog = TableCatalog.read(live, table);
        if (!catalog.exists()) {
          refusals.add(where + " does not exist: load it first (bin/ycsb load postgis-geo -P <workload>).");
          return refusals;
        }
        String partitioning = partitioningProblem(catalog);
        if (partitioning != null) {
          refusals.add(partitioning);
        }
        if (!catalog.gistOnLocation() && !settings.allowSeqScan()) {
          refusals.add(noGistIndex(where));
        }
      } else if (role.equals(LastLocationContract.LAST_KNOWN) && declaration.expected().of(role) == null) {
        continue;  // the insert-only tables: LastKnownLocation is neither kept nor read
      }
      if (!onlyInserts && (!sql.relationExists(table) || empty(table))) {
        refusals.add(ExpectedData.emptyBeforeRun(where));
      }
    }
    return refusals;
  }

  /** The sentence of a restaurants table without its GiST index on {@code location}. */
  static String noGistIndex(String where) {
    return where + " has no GiST index on '" + TableCatalog.LOCATION + "', which every near query needs (each would "
        + "scan the table): build it with bin/ycsb prepare postgis-geo --stage after-load -P <workload> (a load builds "
        + "it by itself), or set " + PostgisSettings.ALLOW_SEQ_SCAN + "=true to measure sequential scans on purpose.";
  }

  /**
   * {@code postgis.partition=cells:N} on a plain table (whose near queries fail), or null. The other
   * disagreements still run, and preflight warns of them ({@link PostgisPreflight}).
   */
  String partitioningProblem(TableCatalog table) {
    if (cells.partitioned() && !table.partitioned()) {
      return CellPartitioning.PARTITION + " is 'cells:" + cells.partitions() + "', but table " + table.table() + " at "
          + settings.maskedUrl() + " is a plain table, so every near query would fail (it has no column 'cell'): load it"
          + " again with " + PostgisSettings.DROP + "=true and this property, or set " + CellPartitioning.PARTITION + "=none.";
    }
    return null;
  }

  private boolean empty(String table) throws SQLException {
    return sql.scalar("SELECT count(*) FROM (SELECT 1 FROM " + table + " LIMIT 1) t") == 0;
  }
}
