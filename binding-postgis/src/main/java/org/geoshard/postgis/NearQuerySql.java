package org.geoshard.postgis;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.geoshard.geo.contract.AttributeFilter;
import org.geoshard.geo.contract.GeoQuery;

/**
 * The SQL of a near query: the restaurants within {@code maxDistance} of the centre on the sphere
 * ({@code ST_DWithin} on geography, which the GiST index serves), nearest first by the KNN operator
 * {@code <->}, ties by id, with the optional filter, the excluded ids and the page. Distances are
 * spherical ({@code use_spheroid = false}), as MongoDB's {@code $nearSphere}.
 *
 * <p>The order is two-stage because {@code ORDER BY location <-> centre, id} is not an order the
 * GiST index can deliver: PostgreSQL then fetches every restaurant in the radius and sorts them (at
 * full scale 93,294 rows and 200-420 ms within 40 km of Shanghai, against about 1 ms nearest first).
 * The inner query orders by {@code <->} alone, so the index hands out the nearest rows first and the
 * scan stops after the page; {@code FETCH FIRST n ROWS WITH TIES} also keeps every row at the same
 * distance as the n-th, so the outer {@code ORDER BY knn, id} picks the same ids whatever order the
 * index returned equal distances in.
 *
 * @param sql the statement with {@code ?} placeholders
 * @param parameters the values of the placeholders, in order
 */
public record NearQuerySql(String sql, List<Object> parameters) {
  static final String COLUMNS = "id, name, city, cuisine, opened, rating, reviews, pricing, outside_area,"
      + " ST_X(location::geometry) AS lon, ST_Y(location::geometry) AS lat";
  /** What the outer query returns: the restaurant and its distance, not the ordering key. */
  static final String ANSWER = "id, name, city, cuisine, opened, rating, reviews, pricing, outside_area, lon, lat, distance";

  /** The query on an unpartitioned table (public for {@code bin/ycsb bench postgis}'s pgbench script). */
  public static NearQuerySql of(String table, GeoQuery q) {
    return of(table, q, null);
  }

  /**
   * With {@code cells} (the covering of the query's cap, not null) the query also names the cells its
   * answer can lie in, so that the planner skips the partitions that hold none of them. One
   * placeholder per cell (not one array), because PostgreSQL prunes partitions by a list of values
   * but not by an array parameter; coverings have a handful of sizes, so few statements are prepared.
   */
  static NearQuerySql of(String table, GeoQuery q, long[] cells) {
    return of(new Texts(table), q, cells);
  }

  /** As {@link #of(String, GeoQuery, long[])}, the statement's text taken from {@code texts}. */
  static NearQuerySql of(Texts texts, GeoQuery q, long[] cells) {
    return new NearQuerySql(texts.text(q, cells), Collections.unmodifiableList(parameters(q, cells)));
  }

  /** The values of the placeholders, in the order {@link #text} places them. */
  private static List<Object> parameters(GeoQuery q, long[] cells) {
    List<Object> parameters = new ArrayList<>(8 + (cells == null ? 0 : cells.length));
    parameters.add(q.longitude());
    parameters.add(q.latitude());
    parameters.add(q.maxDistanceMeters());
    if (cells != null) {
      for (long cell : cells) {
        parameters.add(cell);
      }
    }
    if (q.minDistanceMeters() > 0) {
      parameters.add(q.minDistanceMeters());
    }
    if (q.filter() != null) {
      parameters.add(filterValue(q.filter()));
    }
    if (!q.excludeIds().isEmpty()) {
      parameters.add(q.excludeIds().stream().sorted().toArray(Long[]::new));
    }
    parameters.add((long) q.skip() + q.limit());
    if (q.skip() > 0) {
      parameters.add(q.skip());
    }
    parameters.add(q.limit());
    return parameters;
  }

  private static String text(String table, Shape shape) {
    StringBuilder sql = new StringBuilder("WITH centre AS (SELECT ST_SetSRID(ST_MakePoint(?, ?), 4326)::geography AS g)\n")
        .append("SELECT ").append(ANSWER).append(" FROM (\n")
        .append("SELECT ").append(COLUMNS).append(", ST_Distance(r.location, centre.g, false) AS distance,")
        .append(" r.location <-> centre.g AS knn\n")
        .append("FROM ").append(table).append(" r, centre\n")
        .append("WHERE ST_DWithin(r.location, centre.g, ?, false)");
    if (shape.cells() >= 0) {
      sql.append("\n  AND r.cell IN (").append("?, ".repeat(shape.cells() - 1)).append("?)");
    }
    if (shape.minDistance()) {
      sql.append("\n  AND ST_Distance(r.location, centre.g, false) >= ?");
    }
    if (shape.filter() != null) {
      sql.append("\n  AND ").append(condition(shape.filter()));
    }
    if (shape.excludes()) {
      sql.append("\n  AND NOT (r.id = ANY (?))");
    }
    sql.append("\nORDER BY r.location <-> centre.g\nFETCH FIRST ? ROWS WITH TIES) nearest\nORDER BY knn, id");
    if (shape.skip()) {
      sql.append("\nOFFSET ?");
    }
    return sql.append("\nLIMIT ?").toString();
  }

  private static String condition(Class<? extends AttributeFilter> kind) {
    if (kind == AttributeFilter.CuisineEquals.class) {
      return "r.cuisine = ?";
    }
    if (kind == AttributeFilter.RatingGreaterThan.class) {
      return "r.rating > ?";
    }
    if (kind == AttributeFilter.OutsideAreaEquals.class) {
      return "r.outside_area = ?";
    }
    return "r.pricing = ?";
  }

  private static Object filterValue(AttributeFilter filter) {
    if (filter instanceof AttributeFilter.CuisineEquals f) {
      return f.cuisine();
    }
    if (filter instanceof AttributeFilter.RatingGreaterThan f) {
      return f.rating();
    }
    if (filter instanceof AttributeFilter.OutsideAreaEquals f) {
      return f.outsideArea();
    }
    return ((AttributeFilter.PricingEquals) filter).pricing();
  }

  /**
   * What the text of a near query depends on: queries of one shape share one statement text, built
   * once, which the statement cache then finds by a string whose hash is already known.
   *
   * @param cells the number of covering cells, -1 for none
   */
  record Shape(int cells, boolean minDistance, Class<? extends AttributeFilter> filter, boolean excludes, boolean skip) {
    private static final List<Class<? extends AttributeFilter>> FILTERS = List.of(AttributeFilter.CuisineEquals.class,
        AttributeFilter.RatingGreaterThan.class, AttributeFilter.OutsideAreaEquals.class, AttributeFilter.PricingEquals.class);

    static Shape of(GeoQuery q, long[] cells) {
      return new Shape(cells == null ? -1 : cells.length, q.minDistanceMeters() > 0,
          q.filter() == null ? null : q.filter().getClass(), !q.excludeIds().isEmpty(), q.skip() > 0);
    }

    /**
     * This shape as one int, equal exactly when the shapes are: the statement texts are found by it,
     * because the record's generated {@code equals} and {@code hashCode} cost more than the rest of the
     * lookup (3-4% of a client thread's samples in the near-query side by side).
     */
    int key() {
      int kind = filter == null ? 0 : 1 + FILTERS.indexOf(filter);
      if (filter != null && kind == 0) {
        throw new IllegalArgumentException("A near query's filter of an unknown kind: " + filter.getName());
      }
      int flags = (minDistance ? 1 : 0) | (excludes ? 2 : 0) | (skip ? 4 : 0);
      return ((cells + 1) * (FILTERS.size() + 1) + kind) * 8 + flags;
    }
  }

  /** The statement texts of one table, built on first use per shape. Not thread-safe: one per binding instance. */
  static final class Texts {
    private final String table;
    private final Map<Integer, String> byKey = new HashMap<>();

    Texts(String table) {
      this.table = table;
    }

    String text(GeoQuery q, long[] cells) {
      Shape shape = Shape.of(q, cells);
      return byKey.computeIfAbsent(shape.key(), k -> NearQuerySql.text(table, shape));
    }
  }
}
