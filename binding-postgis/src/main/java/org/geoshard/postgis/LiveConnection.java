package org.geoshard.postgis;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.geoshard.harness.api.RetryWait;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.DBException;

/**
 * One client thread's connection to PostgreSQL, opened again when it breaks (a restarted server, a
 * fail-over, a killed backend). After a break the next operation tries to reconnect at once; while
 * that fails, each further attempt waits a back-off that doubles from {@link #FIRST_BACKOFF} up to
 * {@link #MAX_BACKOFF}, so a server that is down costs a few failed operations per second and thread,
 * not millions. Prepared statements belong to a connection and are prepared again on the new one.
 *
 * <p>Not thread-safe: one per binding instance, used by its client thread.
 */
final class LiveConnection implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LiveConnection.class);
  static final Duration FIRST_BACKOFF = Duration.ofMillis(100);
  static final Duration MAX_BACKOFF = Duration.ofSeconds(2);

  /** Opens a connection, or says in one sentence why it cannot. */
  @FunctionalInterface
  interface Opener {
    Connection open() throws DBException;
  }

  private final Opener opener;
  private final String where;
  private final Map<String, PreparedStatement> statements = new HashMap<>();
  private Connection connection;
  private CopyManager copy;
  private long brokenSinceNanos;
  private int failedAttempts;
  private long backoffNanos;
  private long nextAttemptNanos;

  /** Opens the first connection: failing here is a failure to start, not an operation's error. */
  LiveConnection(Opener opener, String where) throws DBException {
    this.opener = opener;
    this.where = where;
    use(opener.open());
  }

  /** The connection, opened again first if it broke (waiting out the back-off). */
  Connection get() throws SQLException {
    if (connection == null) {
      reconnect();
    }
    return connection;
  }

  CopyManager copy() throws SQLException {
    get();
    return copy;
  }

  /** The statement prepared on the current connection, prepared once per connection. */
  PreparedStatement statement(String sql) throws SQLException {
    Connection c = get();
    PreparedStatement statement = statements.get(sql);
    if (statement == null) {
      statement = c.prepareStatement(sql);
      statements.put(sql, statement);
    }
    return statement;
  }

  /** An operation failed with {@code e}: if the connection is lost, the next operation reconnects. */
  void failed(Exception e) {
    if (connection != null && lost(e)) {
      LOG.warn("Lost the connection to {}: {}; reconnecting.", where, e.getMessage());
      drop();
      brokenSinceNanos = System.nanoTime();
      failedAttempts = 0;
      backoffNanos = 0;
      nextAttemptNanos = brokenSinceNanos;
    }
  }

  /** True while the connection is down (for tests). */
  boolean broken() {
    return connection == null;
  }

  private boolean lost(Exception e) {
    if (e instanceof SQLException sql) {
      String state = sql.getSQLState() == null ? "" : sql.getSQLState();
      // 08: connection exceptions; 57P01-57P03: the server shut down, crashed or is starting up.
      if (state.startsWith("08") || state.startsWith("57P")) {
        return true;
      }
    }
    try {
      return connection.isClosed() || (e instanceof IOException && !connection.isValid(1));
    } catch (SQLException ignored) {
      return true;
    }
  }

  private void reconnect() throws SQLException {
    long wait = nextAttemptNanos - System.nanoTime();
    if (wait > 0) {
      RetryWait.park(wait);  // waiting is not serving: left out of the operation's latency
      if (Thread.currentThread().isInterrupted()) {
        throw new SQLException("Interrupted while waiting to reconnect to " + where, "08001");
      }
    }
    try {
      use(opener.open());
    } catch (DBException e) {
      failedAttempts++;
      backoffNanos = backoffNanos == 0 ? FIRST_BACKOFF.toNanos() : Math.min(backoffNanos * 2, MAX_BACKOFF.toNanos());
      nextAttemptNanos = System.nanoTime() + backoffNanos;
      throw new SQLException("Still no connection (attempt " + failedAttempts + "): " + e.getMessage(), "08001", e);
    }
    long downMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - brokenSinceNanos);
    LOG.info("Reconnected to {} after {} s and {} failed attempts.", where, Math.round(downMs / 100.0) / 10.0,
        failedAttempts);
  }

  private void use(Connection opened) throws DBException {
    try {
      copy = opened.unwrap(PGConnection.class).getCopyAPI();
    } catch (SQLException e) {
      closeQuietly(opened);
      throw new DBException("Could not use " + where + ": " + e.getMessage(), e);
    }
    connection = opened;
  }

  private void drop() {
    statements.values().forEach(s -> {
      try {
        s.close();
      } catch (SQLException e) {
        LOG.debug("closing a statement: {}", e.getMessage());
      }
    });
    statements.clear();
    closeQuietly(connection);
    connection = null;
    copy = null;
  }

  private static void closeQuietly(Connection c) {
    try {
      if (c != null) {
        c.close();
      }
    } catch (SQLException e) {
      LOG.debug("closing the connection: {}", e.getMessage());
    }
  }

  @Override
  public void close() {
    if (connection != null) {
      drop();
    }
  }
}
