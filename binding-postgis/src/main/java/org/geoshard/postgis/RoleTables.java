package org.geoshard.postgis;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.geoshard.geo.contract.GeoContract;
import org.geoshard.harness.api.DataDeclaration;
import org.geoshard.harness.api.DataRole;
import org.geoshard.lastlocation.contract.LastLocationContract;

/**
 * The table each declared role lives in on this binding, in a fixed order (the binding serves three
 * workloads, each with its own): the restaurants ({@code postgis.table}), YCSB's {@code table}, History,
 * LastKnownLocation. Roles of no workload it serves have none.
 */
final class RoleTables {
  private RoleTables() {
  }

  /** @throws IllegalArgumentException YCSB's {@code table} is not a plain SQL name */
  static Map<DataRole, String> of(PostgisSettings settings, DataDeclaration declaration, Set<DataRole> data) {
    Map<DataRole, String> tables = new LinkedHashMap<>();
    if (data.contains(GeoContract.RESTAURANTS)) {
      tables.put(GeoContract.RESTAURANTS, settings.table());
    }
    if (data.contains(DataRole.KEY_VALUE)) {
      tables.put(DataRole.KEY_VALUE, PostgisOperations.checked(declaration.keyValueTable()));
    }
    if (data.contains(LastLocationContract.HISTORY)) {
      tables.put(LastLocationContract.HISTORY, PostgisLastLocation.HISTORY);
    }
    if (data.contains(LastLocationContract.LAST_KNOWN)) {
      tables.put(LastLocationContract.LAST_KNOWN, PostgisLastLocation.LKL);
    }
    return tables;
  }
}
