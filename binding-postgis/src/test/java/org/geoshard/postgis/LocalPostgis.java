package org.geoshard.postgis;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Properties;

/**
 * The private PostGIS server that {@code bin/postgis start} runs (CI and bin/test start it), found
 * through the environment that {@code bin/postgis env} prints. Tests that need it are skipped, with
 * this message, when it is not there.
 */
final class LocalPostgis {
  static final String URL = System.getenv("GEOSHARD_POSTGIS_URL");
  static final String USER = System.getenv("GEOSHARD_POSTGIS_USER");
  static final String PASSWORD = System.getenv("GEOSHARD_POSTGIS_PASSWORD");

  private LocalPostgis() {
  }

  /** Skips the calling test unless the server is configured. */
  static void require() {
    assumeTrue(URL != null && USER != null && PASSWORD != null,
        "No PostGIS server: run 'bin/postgis start' and 'eval \"$(bin/postgis env)\"' (bin/test does both).");
  }

  /** Properties that reach the server, with a table of the test's own. */
  static Properties properties(String table) {
    require();
    Properties p = new Properties();
    p.setProperty(PostgisSettings.URL, URL);
    p.setProperty(PostgisSettings.USER, USER);
    p.setProperty(PostgisSettings.PASSWORD, PASSWORD);
    p.setProperty(PostgisSettings.TABLE, table);
    p.setProperty(PostgisSettings.DROP, "true");
    p.setProperty("table", table + "_kv");
    p.setProperty("status.interval", "0");
    return p;
  }
}
