package org.geoshard.postgis;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringReader;
import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.Vector;
import org.geoshard.geo.contract.GeoContract;
import org.geoshard.geo.contract.GeoHit;
import org.geoshard.geo.contract.GeoQuery;
import org.geoshard.geo.contract.Restaurant;
import org.geoshard.harness.api.BatchOutcomes;
import org.geoshard.harness.api.ExplainsOperations.QueryExplain;
import org.geoshard.harness.api.FailureLog;
import org.geoshard.harness.api.RunContext;
import org.geoshard.lastlocation.contract.LocationStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/**
 * What each operation of the PostGIS binding means in SQL: YCSB's key-value operations (one row per
 * key, the fields as JSON), the geo contract (restaurants written with COPY in batches of
 * {@code batchsize}, near queries with the KNN operator and {@code ST_DWithin}), the last-location
 * contract ({@link PostgisLastLocation}) and the explanation of the last near query. Here, once: the
 * mapping of every failure to an error status of its operation (the connection reconnects if it is
 * lost, the phase's {@link FailureLog} says it without flooding), each batch's per-record outcome
 * ({@link BatchOutcomes}) and the final flush.
 *
 * <p>One per binding instance, so per client thread; not thread-safe.
 */
final class PostgisOperations implements GeoContract {
  /** PostgisDB's logger: the failure lines read as they always did ({@code PostgisDB - ... failed}). */
  private static final Logger LOG = LoggerFactory.getLogger(PostgisDB.class);
  /** The phase's failure log in its {@link RunContext}: a key of this binding's own. */
  private static final String FAILURES = PostgisOperations.class.getName() + ".failures";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<Map<String, String>> FIELDS = new TypeReference<>() { };

  private final PostgisSettings settings;
  private final CellPartitioning cells;
  private final LiveConnection live;
  private final FailureLog failures;
  private final NearQuerySql.Texts nearTexts;
  private final CopyBatch restaurants;
  private final PostgisLastLocation lastLocation;
  /** Outside the harness (preparation, plain YCSB) nobody listens: batches still answer for themselves. */
  private BatchOutcomes.Listener batchOutcomes;
  private boolean reporting;
  /** The last near query this instance sent, for {@link #explainLast()}; null before the first. */
  private NearQuerySql lastNear;

  /**
   * @param listener where each batch's outcome goes, null for nowhere (plain YCSB, preparation): then
   *     a last batch that cannot be written fails the {@link #finish()}
   */
  PostgisOperations(PostgisSettings settings, CellPartitioning cells, LiveConnection live, LocationStream stream,
      FailureLog failures, BatchOutcomes.Listener listener) {
    this.settings = settings;
    this.cells = cells;
    this.live = live;
    this.failures = failures;
    this.nearTexts = new NearQuerySql.Texts(settings.table());
    this.restaurants = new CopyBatch("INSERT", settings.batchSize());
    batchOutcomeListener(listener);
    this.reporting = listener != null;
    this.lastLocation = new PostgisLastLocation(live, new CopyBatch("HISTORY_INSERT", stream.historyBatchSize()),
        batchOutcomes, stream.historySplit(), failures);
  }

  /** The phase's failure log, shared by every instance of the phase (every instance of the JVM under plain YCSB). */
  static FailureLog failureLog(RunContext run) {
    return run.shared(FAILURES, FailureLog.class, () -> new FailureLog(LOG));
  }

  /** Where each restaurant batch's settled outcome goes from now on (the harness's listener); null: nowhere. */
  void batchOutcomeListener(BatchOutcomes.Listener listener) {
    this.batchOutcomes = listener == null ? (operation, ok, failed) -> { } : listener;
    this.reporting = listener != null;
  }

  PostgisLastLocation lastLocation() {
    return lastLocation;
  }

  /**
   * Writes the last partial batches. Under the harness their records' outcomes are reported and
   * counted, so a failed last batch is no failure of the cleanup itself; without a listener (plain
   * YCSB) it is, or it would go unnoticed.
   */
  void finish() throws DBException {
    boolean restaurantsWritten = restaurants.size() == 0 || flush() == Status.OK;
    boolean eventsWritten = lastLocation.flush() == Status.OK;
    if (!reporting && !restaurantsWritten) {
      throw new DBException("The last batch of restaurants could not be written to " + settings.table() + ".");
    }
    if (!reporting && !eventsWritten) {
      throw new DBException("The last batch of events could not be written to " + PostgisLastLocation.HISTORY + ".");
    }
  }

  // ---- the geo contract

  @Override
  public Status insertRestaurant(Restaurant restaurant) {
    cells.appendRow(restaurant, restaurants.rows());
    return restaurants.full() ? flush() : restaurants.waiting();
  }

  /** Writes the buffered restaurants with one COPY; every record of the batch has its outcome. */
  private Status flush() {
    int expected = restaurants.size();
    String rows = restaurants.take();
    boolean written = false;
    try {
      long copied = live.copy().copyIn(cells.copySql(settings.table()), new StringReader(rows));
      written = copied == expected;
      if (!written) {
        failures.failed("COPY into " + settings.table(), "wrote " + copied + " rows of " + expected, null);
      }
    } catch (SQLException | IOException e) {
      live.failed(e);
      failures.failed("COPY of " + expected + " restaurants into " + settings.table(), e.getMessage(), null);
    }
    return restaurants.settle(batchOutcomes, written);
  }

  @Override
  public Status near(GeoQuery query, List<GeoHit> hits) {
    hits.clear();
    NearQuerySql sql = cells.near(nearTexts, query);
    lastNear = sql;
    try {
      PreparedStatement statement = live.statement(sql.sql());
      bind(statement, sql.parameters());
      try (ResultSet rs = statement.executeQuery()) {
        // By position, in NearQuerySql.ANSWER's order: a lookup by name costs a map probe per value.
        while (rs.next()) {
          Restaurant r = new Restaurant(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getInt(5),
              rs.getInt(6), rs.getInt(7), rs.getString(8), rs.getBoolean(9), rs.getDouble(10), rs.getDouble(11));
          hits.add(new GeoHit(r, rs.getDouble(12)));
        }
      }
      return Status.OK;
    } catch (SQLException e) {
      return failed("Near query", e);
    }
  }

  /** The last near query again, under {@code EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)}. */
  Optional<QueryExplain> explainLast() throws DBException {
    if (lastNear == null) {
      return Optional.empty();
    }
    try {
      PreparedStatement statement = live.statement("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + lastNear.sql());
      bind(statement, lastNear.parameters());
      try (ResultSet rs = statement.executeQuery()) {
        rs.next();
        return Optional.of(PlanExplain.parse(rs.getString(1)));
      }
    } catch (SQLException e) {
      live.failed(e);
      throw new DBException("Could not explain a near query: " + e.getMessage(), e);
    }
  }

  private void bind(PreparedStatement statement, List<Object> parameters) throws SQLException {
    for (int i = 0; i < parameters.size(); i++) {
      Object value = parameters.get(i);
      if (value instanceof Long[] ids) {
        Array array = live.get().createArrayOf("bigint", ids);
        statement.setArray(i + 1, array);
      } else {
        statement.setObject(i + 1, value);
      }
    }
  }

  // ---- YCSB's key-value operations: one row per key, the fields as JSON

  Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    try {
      PreparedStatement s = live.statement("SELECT fields FROM " + checked(table) + " WHERE ycsb_key = ?");
      s.setString(1, key);
      try (ResultSet rs = s.executeQuery()) {
        if (!rs.next()) {
          return Status.NOT_FOUND;
        }
        Map<String, String> values = JSON.readValue(rs.getString(1), FIELDS);
        values.forEach((name, value) -> {
          if (fields == null || fields.contains(name)) {
            result.put(name, new StringByteIterator(value));
          }
        });
        return Status.OK;
      }
    } catch (SQLException | IOException e) {
      return failed("read of " + key, e);
    }
  }

  Status scan(String table, String startKey, int count, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    try {
      PreparedStatement s = live.statement("SELECT fields FROM " + checked(table)
          + " WHERE ycsb_key >= ? ORDER BY ycsb_key LIMIT ?");
      s.setString(1, startKey);
      s.setInt(2, count);
      try (ResultSet rs = s.executeQuery()) {
        while (rs.next()) {
          HashMap<String, ByteIterator> row = new HashMap<>();
          Map<String, String> values = JSON.readValue(rs.getString(1), FIELDS);
          values.forEach((name, value) -> {
            if (fields == null || fields.contains(name)) {
              row.put(name, new StringByteIterator(value));
            }
          });
          result.add(row);
        }
      }
      return Status.OK;
    } catch (SQLException | IOException e) {
      return failed("scan from " + startKey, e);
    }
  }

  Status update(String table, String key, Map<String, ByteIterator> values) {
    return write("UPDATE " + checked(table) + " SET fields = fields || ?::jsonb WHERE ycsb_key = ?", key, values, true);
  }

  Status insert(String table, String key, Map<String, ByteIterator> values) {
    return write("INSERT INTO " + checked(table) + " (fields, ycsb_key) VALUES (?::jsonb, ?)", key, values, false);
  }

  private Status write(String sql, String key, Map<String, ByteIterator> values, boolean mustExist) {
    try {
      Map<String, String> fields = new LinkedHashMap<>();
      values.forEach((name, value) -> fields.put(name, value.toString()));
      PreparedStatement s = live.statement(sql);
      s.setString(1, JSON.writeValueAsString(fields));
      s.setString(2, key);
      int rows = s.executeUpdate();
      return rows == 1 ? Status.OK : mustExist ? Status.NOT_FOUND : Status.ERROR;
    } catch (SQLException | IOException e) {
      return failed("write of " + key, e);
    }
  }

  Status delete(String table, String key) {
    try {
      PreparedStatement s = live.statement("DELETE FROM " + checked(table) + " WHERE ycsb_key = ?");
      s.setString(1, key);
      return s.executeUpdate() == 1 ? Status.OK : Status.NOT_FOUND;
    } catch (SQLException e) {
      return failed("delete of " + key, e);
    }
  }

  /** Every failed operation: the connection reconnects if it is lost, the log is rate-limited. */
  private Status failed(String what, Exception e) {
    live.failed(e);
    failures.failed(what, e.getMessage(), null);
    return Status.ERROR;
  }

  /** YCSB passes the table name from its properties: keep it a plain SQL name. */
  static String checked(String table) {
    if (!table.matches("[A-Za-z_][A-Za-z0-9_]{0,62}")) {
      throw new IllegalArgumentException("YCSB table name '" + table + "' is not a plain SQL name.");
    }
    return table;
  }
}
