package org.geoshard.postgis;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.geoshard.harness.api.WaitingNotice;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.DBException;

/** Opens connections and turns PostgreSQL's failures into one clear sentence each. */
public final class Connections {
  private static final Logger LOG = LoggerFactory.getLogger(Connections.class);

  private Connections() {
  }

  public static Connection open(PostgisSettings settings) throws DBException {
    Properties info = new Properties();
    if (settings.user() != null) {
      info.setProperty("user", settings.user());
    }
    if (settings.password() != null) {
      info.setProperty("password", settings.password());
    }
    // The whole connection attempt (TCP connect, TLS and GSS negotiation, login) is bounded by
    // loginTimeout alone. pgjdbc would otherwise put a read timeout on the socket while it connects,
    // and Java's socket, once timed, stays non-blocking for good: every later read of a result then
    // costs a failed read, a poll and a read again (about a third more system time per query).
    long seconds = settings.connectTimeout().toSeconds();
    info.setProperty("loginTimeout", Long.toString(seconds));
    info.setProperty("connectTimeout", "0");
    info.setProperty("sslResponseTimeout", "0");
    info.setProperty("gssResponseTimeout", "0");
    info.setProperty("socketTimeout", "0");
    info.setProperty("ApplicationName", "geoshard");
    // pgjdbc's connect cannot be polled: a timer says what it waits for while it does (a long connectTimeout).
    try (WaitingNotice notice = WaitingNotice.start(settings.maskedUrl(), settings.connectTimeout(),
        PostgisSettings.CONNECT_TIMEOUT, LOG::info)) {
      return DriverManager.getConnection(settings.url(), info);
    } catch (SQLException e) {
      throw new DBException(explain(settings, e), e);
    }
  }

  /**
   * A new connection (also after a reconnect) with the session settings of the restaurants table's
   * layout ({@link CellPartitioning#configure}).
   */
  static Connection open(PostgisSettings settings, CellPartitioning cells) throws DBException {
    Connection connection = open(settings);
    try {
      cells.configure(connection);
    } catch (SQLException e) {
      try {
        connection.close();
      } catch (SQLException closing) {
        e.addSuppressed(closing);
      }
      throw new DBException("Could not set up a session on " + settings.maskedUrl() + ": " + e.getMessage(), e);
    }
    return connection;
  }

  private static final Pattern QUERY_USER = Pattern.compile("[?&]user=([^&;]*)");
  private static final Pattern USER_INFO = Pattern.compile("^[A-Za-z:]*//([^:@/?]+)(?::[^/?]*)?@");

  /** The user a JDBC URL names ({@code ?user=bench} or {@code //bench:...@host}), or null. */
  static String userInUrl(String url) {
    Matcher query = QUERY_USER.matcher(url);
    if (query.find()) {
      return URLDecoder.decode(query.group(1), StandardCharsets.UTF_8);
    }
    Matcher info = USER_INFO.matcher(url);
    return info.find() ? URLDecoder.decode(info.group(1), StandardCharsets.UTF_8) : null;
  }

  /** pgjdbc's state when the server refuses the start-up, among others because it asked for a password none had. */
  private static final String CONNECTION_REJECTED = "08004";
  private static final Pattern PASSWORD_IN_URL = Pattern.compile("[?&]password=|^[A-Za-z:]*//[^/@?]*:[^/@?]*@");

  /** The user the driver logs in as: the one in the URL, else postgis.user (or PGUSER), else the system's. */
  private static String userName(PostgisSettings settings) {
    String inUrl = userInUrl(settings.url());
    return inUrl != null ? inUrl : settings.user() != null ? settings.user() : System.getProperty("user.name");
  }

  static String explain(PostgisSettings settings, SQLException e) {
    String state = e.getSQLState() == null ? "" : e.getSQLState();
    String where = settings.maskedUrl();
    if (state.equals(CONNECTION_REJECTED) && settings.password() == null && !PASSWORD_IN_URL.matcher(settings.url()).find()) {
      // The server answered and asked for a password (pgjdbc: "no password was provided"): not unreachable.
      return "The PostgreSQL server at " + where + " asks for a password for user '" + userName(settings)
          + "' and none was given: set postgis.password, or PGPASSWORD in the environment (read when postgis.password is"
          + " not set), or a password in ~/.pgpass: " + e.getMessage();
    }
    if (state.equals(CONNECTION_REJECTED) && settings.password() != null && settings.password().isEmpty()) {
      return "The PostgreSQL server at " + where + " asks for a password for user '" + userName(settings)
          + "' and the one given is empty (postgis.password, or PGPASSWORD when postgis.password is not set): "
          + e.getMessage();
    }
    if (state.startsWith("08")) {
      return "No PostgreSQL server reachable at " + where + " within " + settings.connectTimeout().toSeconds()
          + " s (postgis.url, postgis.connectTimeout): " + e.getMessage();
    }
    if (state.equals("28P01") || state.equals("28000")) {
      // The driver takes a user named in the URL over postgis.user (and PGUSER): so does the message.
      String inUrl = userInUrl(settings.url());
      String user = inUrl != null ? inUrl : settings.user();
      return "Authentication failed " + (user != null ? "for user '" + user + "' " : "(no user given) ") + "at " + where
          + (inUrl != null ? " (the user in postgis.url, postgis.password): " : " (postgis.user, postgis.password): ")
          + e.getMessage();
    }
    if (state.equals("3D000")) {
      return "The database in " + where + " does not exist (postgis.url): " + e.getMessage();
    }
    return "Could not connect to " + where + ": " + e.getMessage() + " (SQLState " + state + ")";
  }
}
