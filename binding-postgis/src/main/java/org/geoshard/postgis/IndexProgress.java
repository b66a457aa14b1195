package org.geoshard.postgis;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reports how far a {@code CREATE INDEX} is while it runs, from PostgreSQL's
 * {@code pg_stat_progress_create_index} read on a connection of its own every {@code every}: a GiST
 * index after a full-scale load takes minutes, which must not pass without a line. Watching is best
 * effort: if it cannot read the view, the build goes on and only the lines are missing (logged once).
 */
final class IndexProgress implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(IndexProgress.class);
  static final String QUERY = "SELECT p.phase, p.blocks_done, p.blocks_total, p.tuples_done, p.tuples_total,"
      + " EXTRACT(EPOCH FROM now() - a.query_start) FROM pg_stat_progress_create_index p"
      + " JOIN pg_stat_activity a ON a.pid = p.pid WHERE p.relid = to_regclass(?)";

  /** One row of the view, with how long the statement has run. */
  record Sample(String phase, long blocksDone, long blocksTotal, long tuplesDone, long tuplesTotal, double seconds) {
  }

  private final Connection connection;
  private final ScheduledExecutorService timer;

  private IndexProgress(Connection connection, ScheduledExecutorService timer) {
    this.connection = connection;
    this.timer = timer;
  }

  /**
   * Starts watching the build of {@code index} on {@code table}; {@code connection} is the watcher's
   * own and is closed by {@link #close()}.
   */
  static IndexProgress start(Connection connection, String table, String index, Duration every, Consumer<String> log) {
    ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(task -> {
      Thread thread = new Thread(task, "index-progress");
      thread.setDaemon(true);
      return thread;
    });
    IndexProgress progress = new IndexProgress(connection, timer);
    long millis = Math.max(1, every.toMillis());
    timer.scheduleAtFixedRate(() -> {
      try {
        Sample sample = progress.sample(table);
        if (sample != null) {
          log.accept(line(index, sample));
        }
      } catch (SQLException e) {
        LOG.info("The progress of index {} cannot be read ({}); the build goes on.", index, e.getMessage());
        timer.shutdown();
      }
    }, millis, millis, TimeUnit.MILLISECONDS);
    return progress;
  }

  /** The build's row in the view, or null when no index is being built on the table. */
  Sample sample(String table) throws SQLException {
    try (PreparedStatement s = connection.prepareStatement(QUERY)) {
      s.setString(1, table);
      try (ResultSet rs = s.executeQuery()) {
        if (!rs.next()) {
          return null;
        }
        return new Sample(rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5), rs.getDouble(6));
      }
    }
  }

  /** {@code Index restaurants_location_gist: building index: scanning table, 45.2% of blocks (12,345 of 27,300), running 35 s}. */
  static String line(String index, Sample s) {
    StringBuilder line = new StringBuilder("Index ").append(index).append(": ").append(s.phase());
    if (s.blocksTotal() > 0) {
      line.append(String.format(Locale.ROOT, ", %.1f%% of blocks (%,d of %,d)", 100.0 * s.blocksDone() / s.blocksTotal(),
          s.blocksDone(), s.blocksTotal()));
    } else if (s.tuplesTotal() > 0) {
      line.append(String.format(Locale.ROOT, ", %.1f%% of rows (%,d of %,d)", 100.0 * s.tuplesDone() / s.tuplesTotal(),
          s.tuplesDone(), s.tuplesTotal()));
    }
    return line.append(", running ").append(Math.round(s.seconds())).append(" s").toString();
  }

  @Override
  public void close() {
    timer.shutdownNow();
    try {
      timer.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      connection.close();
    } catch (SQLException e) {
      LOG.debug("Closing the index progress connection: {}", e.getMessage());
    }
  }
}
