package org.geoshard.postgis;

import java.time.Duration;
import java.util.Properties;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.config.PropertyReader;

/**
 * The PostGIS binding's settings ({@code postgis.*} and YCSB's {@code batchsize}), read and checked in
 * one place. Immutable.
 *
 * @param table the restaurants table of the geo workload
 * @param batchSize restaurants per COPY
 * @param indexAfterLoad build the GiST index after the load (default) rather than before
 * @param drop drop the tables before a load
 * @param append load into tables that already hold rows (a load split over several clients)
 * @param allowSeqScan a run may search a restaurants table without its GiST index (measuring sequential scans
 *     on purpose; said in run.json's topology); otherwise such a run is refused before its start
 * @param statusInterval the harness's {@code status.interval}: how often a long index build says how far it is
 *     (zero: never)
 */
public record PostgisSettings(String url, String user, String password, String table, int batchSize,
                              boolean indexAfterLoad, boolean drop, boolean append, Duration connectTimeout,
                              Duration statusInterval, boolean allowSeqScan) {

  public static final String URL = "postgis.url";
  public static final String USER = "postgis.user";
  public static final String PASSWORD = "postgis.password";
  public static final String TABLE = "postgis.table";
  public static final String INDEX_WHEN = "postgis.index.when";
  public static final String DROP = "postgis.drop";
  public static final String APPEND = "postgis.append";
  public static final String CONNECT_TIMEOUT = "postgis.connectTimeout";
  public static final String ALLOW_SEQ_SCAN = "postgis.allowSeqScan";
  public static final String BATCH_SIZE = "batchsize";
  /** The harness's property (it checks the value first), read here as the harness reads it. */
  public static final String STATUS_INTERVAL = "status.interval";

  /** When the GiST index is built. */
  enum IndexWhen { BEFORE, AFTER }

  public static PostgisSettings fromProperties(Properties properties) throws ConfigException {
    PropertyReader in = new PropertyReader(properties);
    String url = in.string(URL, "jdbc:postgresql://127.0.0.1:5432/geoshard");
    if (!url.startsWith("jdbc:postgresql://")) {
      in.problem("Property '" + URL + "' must be a PostgreSQL JDBC URL (jdbc:postgresql://host:port/database), but is '"
          + org.geoshard.harness.api.Secrets.maskText(url) + "'.");
    }
    String table = in.string(TABLE, "restaurants");
    if (!table.matches("[A-Za-z_][A-Za-z0-9_]{0,62}")) {
      in.problem("Property '" + TABLE + "' must be a plain SQL name (letters, digits, _), but is '" + table + "'.");
    }
    int batchSize = in.intInRange(BATCH_SIZE, 1000, 1, 1_000_000);
    IndexWhen when = in.choice(INDEX_WHEN, IndexWhen.AFTER, IndexWhen.class);
    boolean drop = in.bool(DROP, false);
    boolean append = in.bool(APPEND, false);
    boolean allowSeqScan = in.bool(ALLOW_SEQ_SCAN, false);
    Duration connectTimeout = in.seconds(CONNECT_TIMEOUT, Duration.ofSeconds(5), 1);
    Duration statusInterval = in.seconds(STATUS_INTERVAL, Duration.ofSeconds(10), 0);
    // Like libpq, fall back to PGUSER and PGPASSWORD, so that a password need not be on a command line.
    String user = in.string(USER, System.getenv("PGUSER"));
    String password = in.string(PASSWORD, System.getenv("PGPASSWORD"));
    in.throwIfProblems();
    return new PostgisSettings(url, user, password, table, batchSize, when == IndexWhen.AFTER, drop, append,
        connectTimeout, statusInterval, allowSeqScan);
  }

  /** The URL as it may be shown: passwords masked. */
  public String maskedUrl() {
    return org.geoshard.harness.api.Secrets.maskText(url);
  }
}
