package org.geoshard.postgis.bench;

import java.io.IOException;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.SplittableRandom;
import org.geoshard.geo.contract.GeoQuery;
import org.geoshard.geo.query.QueryGenerator;
import org.geoshard.postgis.NearQuerySql;
import org.postgresql.PGConnection;

/**
 * The binding's near query as a pgbench script, so that pgbench sends the statement the binding
 * sends. pgbench cannot draw a point near a random city, so the centres are drawn once, by the
 * workload's own query generator, into a table, and the script looks its centre up by a random id
 * (a primary-key lookup the server does beside the near query, which the binding does not need).
 */
final class NearPgbench {
  /** Centres drawn into the table: many more than the queries of a run ever repeat. */
  static final int CENTRES = 100_000;
  private static final String POINT = "ST_SetSRID(ST_MakePoint(?, ?), 4326)::geography";

  private NearPgbench() {
  }

  static String centresTable(String table) {
    return table + "_centres";
  }

  /** The script: a random centre id, a random radius, and the binding's near query around it. */
  static String script(String table, int pageSize, int minRadius, int maxRadius) {
    String sql = NearQuerySql.of(table, GeoQuery.firstPage(0, 0, 1, pageSize)).sql();
    if (!sql.contains(POINT)) {
      throw new IllegalStateException("The near query no longer builds its centre from two placeholders: " + sql);
    }
    sql = sql.replace(POINT, "(SELECT g FROM " + centresTable(table) + " WHERE id = :c)");
    // What is left, in order: the radius, the rows of the nearest-first scan, the page size.
    for (String variable : new String[] {":r", ":n", ":n"}) {
      int at = sql.indexOf('?');
      sql = sql.substring(0, at) + variable + sql.substring(at + 1);
    }
    if (sql.indexOf('?') >= 0) {
      throw new IllegalStateException("The basic near query has more placeholders than pgbench's script fills: " + sql);
    }
    return String.format(Locale.ROOT, """
        -- binding-postgis's near query (NearQuerySql) for pgbench -M prepared: the %d nearest restaurants
        -- within %d-%d m of a centre drawn by the geo workload's query generator (bin/ycsb bench postgis).
        \\set c random(1, :centres)
        \\set r random(%d, %d)
        \\set n %d
        %s;
        """, pageSize, minRadius, maxRadius, minRadius, maxRadius, pageSize, sql);
  }

  /** Writes {@link #CENTRES} centres of basic queries, drawn with {@code seed}, into a new table. */
  static void writeCentres(Connection connection, String table, QueryGenerator generator, long seed)
      throws SQLException, IOException {
    String centres = centresTable(table);
    try (Statement s = connection.createStatement()) {
      s.execute("DROP TABLE IF EXISTS " + centres);
      s.execute("CREATE TABLE " + centres + " (id integer PRIMARY KEY, g geography(Point, 4326) NOT NULL)");
    }
    SplittableRandom random = new SplittableRandom(seed);
    StringBuilder rows = new StringBuilder(CENTRES * 48);
    for (int id = 1; id <= CENTRES; id++) {
      GeoQuery q = generator.basic(random);
      rows.append(id).append("\tSRID=4326;POINT(").append(q.longitude()).append(' ').append(q.latitude()).append(")\n");
    }
    connection.unwrap(PGConnection.class).getCopyAPI()
        .copyIn("COPY " + centres + " (id, g) FROM STDIN", new StringReader(rows.toString()));
    try (Statement s = connection.createStatement()) {
      s.execute("ANALYZE " + centres);
    }
  }
}
