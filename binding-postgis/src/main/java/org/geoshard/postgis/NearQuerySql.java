package org.geoshard.postgis;

import java.util.ArrayList;
import java.util.List;
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
 * full scale 93,294 rows and about 250 ms within 40 km of Shanghai, against 14 ms nearest first).
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
    List<Object> parameters = new ArrayList<>();
    StringBuilder sql = new StringBuilder("WITH centre AS (SELECT ST_SetSRID(ST_MakePoint(?, ?), 4326)::geography AS g)\n")
        .append("SELECT ").append(ANSWER).append(" FROM (\n")
        .append("SELECT ").append(COLUMNS).append(", ST_Distance(r.location, centre.g, false) AS distance,")
        .append(" r.location <-> centre.g AS knn\n")
        .append("FROM ").append(table).append(" r, centre\n")
        .append("WHERE ST_DWithin(r.location, centre.g, ?, false)");
    parameters.add(q.longitude());
    parameters.add(q.latitude());
    parameters.add(q.maxDistanceMeters());
    if (cells != null) {
      sql.append("\n  AND r.cell IN (").append("?, ".repeat(cells.length - 1)).append("?)");
      for (long cell : cells) {
        parameters.add(cell);
      }
    }
    if (q.minDistanceMeters() > 0) {
      sql.append("\n  AND ST_Distance(r.location, centre.g, false) >= ?");
      parameters.add(q.minDistanceMeters());
    }
    if (q.filter() != null) {
      sql.append("\n  AND ").append(condition(q.filter(), parameters));
    }
    if (!q.excludeIds().isEmpty()) {
      sql.append("\n  AND NOT (r.id = ANY (?))");
      parameters.add(q.excludeIds().stream().sorted().toArray(Long[]::new));
    }
    sql.append("\nORDER BY r.location <-> centre.g\nFETCH FIRST ? ROWS WITH TIES) nearest\nORDER BY knn, id");
    parameters.add((long) q.skip() + q.limit());
    if (q.skip() > 0) {
      sql.append("\nOFFSET ?");
      parameters.add(q.skip());
    }
    sql.append("\nLIMIT ?");
    parameters.add(q.limit());
    return new NearQuerySql(sql.toString(), List.copyOf(parameters));
  }

  private static String condition(AttributeFilter filter, List<Object> parameters) {
    if (filter instanceof AttributeFilter.CuisineEquals f) {
      parameters.add(f.cuisine());
      return "r.cuisine = ?";
    }
    if (filter instanceof AttributeFilter.RatingGreaterThan f) {
      parameters.add(f.rating());
      return "r.rating > ?";
    }
    if (filter instanceof AttributeFilter.OutsideAreaEquals f) {
      parameters.add(f.outsideArea());
      return "r.outside_area = ?";
    }
    AttributeFilter.PricingEquals f = (AttributeFilter.PricingEquals) filter;
    parameters.add(f.pricing());
    return "r.pricing = ?";
  }
}
