package org.geoshard.postgis;

import java.io.IOException;
import java.io.StringReader;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.geoshard.harness.api.BatchOutcomes;
import org.geoshard.harness.api.FailureLog;
import org.geoshard.lastlocation.contract.HistorySplit;
import org.geoshard.lastlocation.contract.LastLocationContract;
import org.geoshard.lastlocation.contract.LocationEvent;
import site.ycsb.Status;

/**
 * The last-location contract on PostgreSQL: {@code ll_history} (appended with COPY in batches of
 * {@code ll.history.batchsize}; with {@code ll.history.split} range-partitioned by month or day, the
 * partitions created as events reach them) and {@code ll_lkl}, one row per user, replaced only by a
 * newer event ({@code INSERT ... ON CONFLICT DO UPDATE ... WHERE} older).
 */
final class PostgisLastLocation implements LastLocationContract {
  static final String HISTORY = "ll_history";
  static final String LKL = "ll_lkl";
  static final String COLUMNS = "user_id, cell_id, ts, lat, lon";

  private final LiveConnection live;
  private final CopyBatch history;
  private final BatchOutcomes.Listener batchOutcomes;
  private final HistorySplit split;
  private final FailureLog failures;
  private final Set<String> knownPartitions = new HashSet<>();
  private final Set<String> pendingSplits = new HashSet<>();

  PostgisLastLocation(LiveConnection live, CopyBatch history, BatchOutcomes.Listener batchOutcomes, HistorySplit split,
      FailureLog failures) {
    this.live = live;
    this.failures = failures;
    this.history = history;
    this.batchOutcomes = batchOutcomes;
    this.split = split;
  }

  /** The GiST index of {@code ll_lkl}, built only for near queries: every upsert pays for it. */
  static final String LKL_INDEX = LKL + "_location_gist";

  /**
   * The tables; {@code ll_lkl}'s GiST index only when {@code nearQueries} (LKL_NEAR in the readers' mix),
   * as MongoDB's 2dsphere index: the pilot's tables had none.
   */
  static List<String> createTables(HistorySplit split, boolean nearQueries) {
    List<String> ddl = new java.util.ArrayList<>(createTables(split));
    if (nearQueries) {
      ddl.add("CREATE INDEX IF NOT EXISTS " + LKL_INDEX + " ON " + LKL + " USING GIST (location)");
    }
    return ddl;
  }

  private static List<String> createTables(HistorySplit split) {
    String partitioning = split == HistorySplit.NONE ? "" : " PARTITION BY RANGE (ts)";
    return List.of("CREATE EXTENSION IF NOT EXISTS postgis",
        "CREATE TABLE IF NOT EXISTS " + HISTORY + " (user_id text NOT NULL, cell_id integer NOT NULL, ts bigint NOT NULL,"
            + " lat double precision NOT NULL, lon double precision NOT NULL)" + partitioning,
        "CREATE INDEX IF NOT EXISTS " + HISTORY + "_user_ts ON " + HISTORY + " (user_id, ts)",
        "CREATE TABLE IF NOT EXISTS " + LKL + " (user_id text PRIMARY KEY, cell_id integer NOT NULL, ts bigint NOT NULL,"
            + " location geography(Point, 4326) NOT NULL)");
  }

  static List<String> dropTables() {
    return List.of("DROP TABLE IF EXISTS " + HISTORY + " CASCADE", "DROP TABLE IF EXISTS " + LKL);
  }

  @Override
  public Status appendHistory(LocationEvent e) {
    history.rows().append(e.userId()).append('\t').append(e.cellId()).append('\t').append(e.timestampMs())
        .append('\t').append(e.latitude()).append('\t').append(e.longitude()).append('\n');
    if (split != HistorySplit.NONE) {
      pendingSplits.add(split.suffix(e.timestampMs()) + "@" + split.bounds(e.timestampMs())[0]);
    }
    return history.full() ? flush() : history.waiting();
  }

  /** Writes the buffered events with one COPY; every event of the batch has its outcome. */
  Status flush() {
    if (history.size() == 0) {
      return Status.OK;
    }
    int expected = history.size();
    String rows = history.take();
    boolean written = false;
    try {
      for (String pending : pendingSplits) {
        ensurePartition(pending);
      }
      pendingSplits.clear();
      long copied = live.copy().copyIn("COPY " + HISTORY + " (" + COLUMNS + ") FROM STDIN", new StringReader(rows));
      written = copied == expected;
    } catch (SQLException | IOException e) {
      failed("COPY of " + expected + " events into " + HISTORY, e);
    }
    return history.settle(batchOutcomes, written);
  }

  private Status failed(String what, Exception e) {
    live.failed(e);
    failures.failed(what, e.getMessage(), null);
    return Status.ERROR;
  }

  /** Creates the partition of a split ("suffix@firstMs") unless this connection already saw it. */
  private void ensurePartition(String pending) throws SQLException {
    String suffix = pending.substring(0, pending.indexOf('@'));
    if (knownPartitions.contains(suffix)) {
      return;
    }
    long first = Long.parseLong(pending.substring(pending.indexOf('@') + 1));
    long end = split.bounds(first)[1];
    try (Statement s = live.get().createStatement()) {
      s.execute("CREATE TABLE IF NOT EXISTS " + HISTORY + "_" + suffix + " PARTITION OF " + HISTORY
          + " FOR VALUES FROM (" + first + ") TO (" + end + ")");
    } catch (SQLException e) {
      // Another thread created it at the same moment (duplicate table or type): that is what we wanted.
      if (!"42P07".equals(e.getSQLState()) && !"23505".equals(e.getSQLState())) {
        throw e;
      }
    }
    knownPartitions.add(suffix);
  }

  @Override
  public Status upsertLastLocation(LocationEvent e) {
    try {
      PreparedStatement s = live.statement("INSERT INTO " + LKL + " (user_id, cell_id, ts, location)"
          + " VALUES (?, ?, ?, ST_SetSRID(ST_MakePoint(?, ?), 4326)::geography)"
          + " ON CONFLICT (user_id) DO UPDATE SET cell_id = EXCLUDED.cell_id, ts = EXCLUDED.ts,"
          + " location = EXCLUDED.location WHERE " + LKL + ".ts < EXCLUDED.ts");
      s.setString(1, e.userId());
      s.setInt(2, e.cellId());
      s.setLong(3, e.timestampMs());
      s.setDouble(4, e.longitude());
      s.setDouble(5, e.latitude());
      return s.executeUpdate() == 1 ? Status.OK : LastLocationContract.STALE;
    } catch (SQLException ex) {
      return failed("Upsert of " + e.userId(), ex);
    }
  }

  @Override
  public Status readLastLocation(String userId, List<LocationEvent> out) {
    out.clear();
    return query("SELECT user_id, cell_id, ts, ST_Y(location::geometry), ST_X(location::geometry) FROM " + LKL
        + " WHERE user_id = ?", out, userId);
  }

  @Override
  public Status historyRange(String userId, long fromMs, long toMs, List<LocationEvent> out) {
    out.clear();
    // On a partitioned History, PostgreSQL reads only the partitions the range touches.
    return query("SELECT " + COLUMNS + " FROM " + HISTORY + " WHERE user_id = ? AND ts BETWEEN ? AND ? ORDER BY ts",
        out, userId, fromMs, toMs);
  }

  @Override
  public Status usersNear(double longitude, double latitude, double radius, int limit, List<LocationEvent> out) {
    out.clear();
    return query("WITH centre AS (SELECT ST_SetSRID(ST_MakePoint(?, ?), 4326)::geography AS g)"
        + " SELECT user_id, cell_id, ts, ST_Y(location::geometry), ST_X(location::geometry) FROM " + LKL + ", centre"
        + " WHERE ST_DWithin(location, centre.g, ?, false) ORDER BY location <-> centre.g, user_id LIMIT ?",
        out, longitude, latitude, radius, limit);
  }

  private Status query(String sql, List<LocationEvent> out, Object... parameters) {
    try {
      PreparedStatement s = live.statement(sql);
      for (int i = 0; i < parameters.length; i++) {
        s.setObject(i + 1, parameters[i]);
      }
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          out.add(new LocationEvent(rs.getString(1), rs.getInt(2), rs.getLong(3), rs.getDouble(4), rs.getDouble(5)));
        }
      }
      return Status.OK;
    } catch (SQLException e) {
      return failed("Query", e);
    }
  }
}
