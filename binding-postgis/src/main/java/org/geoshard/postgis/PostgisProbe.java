package org.geoshard.postgis;

import java.net.URI;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.geoshard.harness.api.ServerProbe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.DBException;

/**
 * Samples the PostgreSQL server on a connection of its own, with the statistics views only:
 * {@code pg_stat_database} of the benchmark's database (commits, blocks read and hit, tuples), the
 * backends of that database by state and wait-event type (this probe's own excluded), the
 * checkpoints, and {@code pg_statio} of the benchmark's tables (partitions summed into their table)
 * and their indexes. A lost connection is opened again at the next reading.
 */
final class PostgisProbe implements ServerProbe {
  private static final Logger LOG = LoggerFactory.getLogger(PostgisProbe.class);
  static final String ROLE = "postgresql";

  private static final String DATABASE = "SELECT xact_commit AS pg_xact_commit_total,"
      + " xact_rollback AS pg_xact_rollback_total, blks_read AS pg_blks_read_total, blks_hit AS pg_blks_hit_total,"
      + " tup_returned AS pg_tup_returned_total, tup_fetched AS pg_tup_fetched_total,"
      + " tup_inserted AS pg_tup_inserted_total, tup_updated AS pg_tup_updated_total,"
      + " tup_deleted AS pg_tup_deleted_total, temp_bytes AS pg_temp_bytes_total, deadlocks AS pg_deadlocks_total,"
      + " blk_read_time / 1000 AS pg_blk_read_seconds_total, numbackends AS pg_backends"
      + " FROM pg_stat_database WHERE datname = current_database()";
  /** PostgreSQL 17 moved the checkpoint counters from pg_stat_bgwriter to pg_stat_checkpointer. */
  private static final String CHECKPOINTS_BEFORE_17 = "SELECT checkpoints_timed AS pg_checkpoints_timed_total,"
      + " checkpoints_req AS pg_checkpoints_requested_total, buffers_checkpoint AS pg_checkpoint_buffers_total,"
      + " buffers_backend AS pg_backend_buffers_written_total FROM pg_stat_bgwriter";
  private static final String CHECKPOINTS_SINCE_17 = "SELECT num_timed AS pg_checkpoints_timed_total,"
      + " num_requested AS pg_checkpoints_requested_total, buffers_written AS pg_checkpoint_buffers_total"
      + " FROM pg_stat_checkpointer";
  private static final String BACKENDS = "SELECT coalesce(state, 'unknown'), coalesce(wait_event_type, ''), count(*)"
      + " FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
      + " AND backend_type = 'client backend' GROUP BY 1, 2";
  /** Each benchmark table with its partitions (pg_partition_tree lists a partitioned table's, nothing else). */
  private static final String TABLES = "SELECT r.root, sum(s.heap_blks_read), sum(s.heap_blks_hit),"
      + " sum(coalesce(s.idx_blks_read, 0)), sum(coalesce(s.idx_blks_hit, 0))"
      + " FROM unnest(?::text[]) AS r(root) JOIN pg_statio_user_tables s ON s.relid = to_regclass(r.root)"
      + " OR s.relid IN (SELECT relid FROM pg_partition_tree(to_regclass(r.root))) GROUP BY r.root";
  private static final String INDEXES = "SELECT s.indexrelname, s.idx_blks_read, s.idx_blks_hit"
      + " FROM unnest(?::text[]) AS r(root) JOIN pg_statio_user_indexes s ON s.relid = to_regclass(r.root)";

  private final PostgisSettings settings;
  private final List<String> tables;
  private final String node;
  private Connection connection;
  private String checkpoints;

  PostgisProbe(PostgisSettings settings, List<String> tables) {
    this.settings = settings;
    this.tables = List.copyOf(tables);
    this.node = node(settings.url());
  }

  /** {@code host:port} of a JDBC URL (the first host of a list), as the sampler names the node. */
  static String node(String jdbcUrl) {
    try {
      URI uri = URI.create(jdbcUrl.substring("jdbc:".length()));
      String authority = uri.getRawAuthority();
      if (authority == null || authority.isEmpty()) {
        return "localhost:5432";
      }
      String first = authority.substring(authority.lastIndexOf('@') + 1).split(",")[0];
      return first.contains(":") ? first : first + ":5432";
    } catch (RuntimeException e) {
      return "postgresql";
    }
  }

  @Override
  public String node() {
    return node;
  }

  @Override
  public String role() {
    return ROLE;
  }

  @Override
  public Map<String, Double> sample() throws SQLException, DBException {
    Connection c = connection();
    Map<String, Double> out = new TreeMap<>();
    try {
      try (Statement s = c.createStatement()) {
        row(s, DATABASE, out);
        row(s, checkpoints, out);
        out.put("pg_backends_active", 0.0);
        out.put("pg_backends_idle_in_transaction", 0.0);
        try (ResultSet rs = s.executeQuery(BACKENDS)) {
          while (rs.next()) {
            String state = rs.getString(1);
            String wait = rs.getString(2);
            double count = rs.getLong(3);
            if (state.equals("active")) {
              out.merge("pg_backends_active", count, Double::sum);
              if (!wait.isEmpty()) {
                out.merge("pg_backends_waiting." + wait, count, Double::sum);
              }
            } else if (state.startsWith("idle in transaction")) {
              out.merge("pg_backends_idle_in_transaction", count, Double::sum);
            }
          }
        }
      }
      Array names = c.createArrayOf("text", tables.toArray());
      try (PreparedStatement p = c.prepareStatement(TABLES)) {
        p.setArray(1, names);
        try (ResultSet rs = p.executeQuery()) {
          while (rs.next()) {
            String table = rs.getString(1);
            out.put("pg_statio_heap_blks_read_total." + table, rs.getDouble(2));
            out.put("pg_statio_heap_blks_hit_total." + table, rs.getDouble(3));
            out.put("pg_statio_idx_blks_read_total." + table, rs.getDouble(4));
            out.put("pg_statio_idx_blks_hit_total." + table, rs.getDouble(5));
          }
        }
      }
      try (PreparedStatement p = c.prepareStatement(INDEXES)) {
        p.setArray(1, names);
        try (ResultSet rs = p.executeQuery()) {
          while (rs.next()) {
            out.put("pg_statio_index_blks_read_total." + rs.getString(1), rs.getDouble(2));
            out.put("pg_statio_index_blks_hit_total." + rs.getString(1), rs.getDouble(3));
          }
        }
      }
      // The statistics views are a snapshot per transaction; end it so that the next reading is fresh.
      c.commit();
    } catch (SQLException e) {
      close();  // opened again at the next reading
      throw e;
    }
    return out;
  }

  private static void row(Statement s, String sql, Map<String, Double> out) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      if (rs.next()) {
        ResultSetMetaData meta = rs.getMetaData();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
          double value = rs.getDouble(i);
          if (!rs.wasNull()) {
            out.put(meta.getColumnLabel(i), value);
          }
        }
      }
    }
  }

  private Connection connection() throws SQLException, DBException {
    if (connection == null || connection.isClosed()) {
      Connection c = Connections.open(settings);
      try (Statement s = c.createStatement()) {
        s.execute("SET application_name = 'geoshard-observer'");
        try (ResultSet rs = s.executeQuery("SHOW server_version_num")) {
          rs.next();
          checkpoints = Integer.parseInt(rs.getString(1).trim()) >= 170000 ? CHECKPOINTS_SINCE_17 : CHECKPOINTS_BEFORE_17;
        }
      }
      c.setAutoCommit(false);
      connection = c;
    }
    return connection;
  }

  @Override
  public void close() {
    if (connection != null) {
      try {
        connection.close();
      } catch (SQLException e) {
        LOG.debug("Closing the sampler's connection failed", e);
      }
      connection = null;
    }
  }
}
