package org.geoshard.postgis;

import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.geoshard.geo.contract.GeoContract;
import org.geoshard.harness.api.DataDeclaration;
import org.geoshard.harness.api.DataRole;
import org.geoshard.harness.api.ServerProbe;
import site.ycsb.DBException;

/**
 * The server as the harness describes and observes it: run.json's {@code topology} (versions, URL,
 * partitioning, the table of the declared data), the one {@link PostgisProbe} of {@code servers.csv},
 * and the server's local processes and node name for the I/O tracer.
 *
 * <p>One per binding instance, on its connection; not thread-safe.
 */
final class PostgisTopology {
  private final PostgisSettings settings;
  private final CellPartitioning cells;
  private final ServerQueries sql;
  private final DataDeclaration declaration;

  PostgisTopology(PostgisSettings settings, CellPartitioning cells, ServerQueries sql, DataDeclaration declaration) {
    this.settings = settings;
    this.cells = cells;
    this.sql = sql;
    this.declaration = declaration;
  }

  /** The server, with the table of the data the workload declares: the restaurants, {@code table}, or History. */
  Map<String, Object> topology(Set<DataRole> data) throws DBException {
    String table = tableOf(data);
    try {
      Map<String, Object> topology = new LinkedHashMap<>();
      topology.put("kind", "postgresql");
      topology.put("serverVersion", sql.string("SHOW server_version"));
      topology.put("postgis", sql.string("SELECT postgis_lib_version()"));
      topology.put("url", settings.maskedUrl());
      topology.put("partition", cells.partitioned() ? "cells:" + cells.partitions() : "none");
      if (settings.allowSeqScan()) {
        topology.put("allowSeqScan", true);  // the run searched without its GiST index, on purpose
      }
      if (sql.relationExists(table)) {
        topology.put("table", table);
        topology.put("rows", sql.count(table));
        topology.put("tableBytes", sql.treeBytes("pg_total_relation_size", table));
        if (table.equals(settings.table())) {
          topology.put("locationIndex", sql.relationExists(Schema.locationIndex(table)));
        }
      }
      return topology;
    } catch (SQLException e) {
      throw new DBException("Could not describe " + settings.maskedUrl() + ": " + e.getMessage(), e);
    }
  }

  /** The one table topology describes: the restaurants (also when nothing is declared), else {@code table}, else History. */
  String tableOf(Set<DataRole> data) {
    return data.contains(GeoContract.RESTAURANTS) || data.isEmpty() ? settings.table()
        : data.contains(DataRole.KEY_VALUE) ? PostgisOperations.checked(declaration.keyValueTable())
        : PostgisLastLocation.HISTORY;
  }

  /** The one server, sampled on a connection of the probe's own (this instance's is not kept). */
  List<ServerProbe> serverProbes() {
    return List.of(new PostgisProbe(settings, probedTables()));
  }

  /** The tables whose reads the probe counts: every table the binding may hold, whatever the workload. */
  List<String> probedTables() {
    String kvTable = PostgisOperations.checked(declaration.keyValueTable());
    return List.of(settings.table(), kvTable, PostgisLastLocation.HISTORY, PostgisLastLocation.LKL);
  }

  /**
   * The postmaster, when the server runs on this machine: the parent of this connection's backend
   * (a backend is the postmaster's child). Empty for a remote server or one whose processes this
   * machine cannot see (another container, another pid namespace).
   */
  List<Long> localServerPids() throws DBException {
    if (!LocalServer.isLocalUrl(settings.url())) {
      return List.of();
    }
    try {
      long backend = sql.scalar("SELECT pg_backend_pid()");
      return LocalServer.postmasterOf(backend).map(List::of).orElse(List.of());
    } catch (SQLException e) {
      throw new DBException("Could not ask " + settings.maskedUrl() + " for its process: " + e.getMessage(), e);
    }
  }

  String localNodeName() {
    return LocalServer.nodeName(settings.url());
  }
}
