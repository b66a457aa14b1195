package org.geoshard.mongodb;

import java.util.ArrayList;
import java.util.List;
import org.bson.Document;
import org.geoshard.geo.contract.AttributeFilter;
import org.geoshard.geo.contract.GeoQuery;
import org.geoshard.geo.contract.Restaurant;
import org.geoshard.geo.dataset.Sphere;

/**
 * A {@link GeoQuery} in MongoDB's language: a {@code find} whose filter is
 * {@code {location: {$nearSphere: {$geometry, $maxDistance[, $minDistance]}}[, <attribute filter>][, _id: {$nin: [...]}]}},
 * with {@code skip} (when paging by skip) and {@code limit}. {@code $nearSphere} sorts by distance,
 * so the find has no sort of its own. Pure: no I/O.
 *
 * <p><b>Distances.</b> The workload's distances are on a sphere of {@link Sphere#EARTH_RADIUS_METERS}
 * (6,371 km); MongoDB measures GeoJSON distances on a sphere of {@value #SERVER_EARTH_RADIUS_METERS} m
 * ({@code kRadiusOfEarthInMeters} in the server's source). The same angle is 0.11% more metres to the
 * server. {@code $maxDistance} is sent as the study sent it by default: the integer metres drawn
 * ({@link MongoSettings.MaxDistance#DRAWN}); with {@link MongoSettings.MaxDistance#SCALED} it is scaled
 * by {@link #SERVER_METERS_PER_WORKLOAD_METER}, so that the server selects exactly the restaurants within
 * the workload's radius (what the haversine oracle and PostGIS answer). {@code $minDistance} (geoshard's
 * own paging, not the study's) is always scaled: it is a distance the workload measured
 * ({@link Sphere#distanceMeters}), and unscaled the next page would repeat up to 0.11% of the previous
 * page's distance range.
 *
 * @param filter the find's filter
 * @param skip documents to skip (0: no skip is sent)
 * @param limit at most this many documents
 */
public record NearQuery(Document filter, int skip, int limit) {
  /** The server's Earth radius for GeoJSON distances (MongoDB's {@code kRadiusOfEarthInMeters}). */
  public static final double SERVER_EARTH_RADIUS_METERS = 6_378_100.0;
  /** The order of a near query's answer: nearest first, ties by restaurant number. */
  public static final java.util.Comparator<org.geoshard.geo.contract.GeoHit> NEAREST_FIRST =
      java.util.Comparator.comparingDouble(org.geoshard.geo.contract.GeoHit::distanceMeters)
          .thenComparingLong(hit -> hit.restaurant().id());
  public static final double SERVER_METERS_PER_WORKLOAD_METER = SERVER_EARTH_RADIUS_METERS / Sphere.EARTH_RADIUS_METERS;

  /** The query as the binding sends it by default: {@code $maxDistance} as drawn, as the study sent it. */
  public static NearQuery of(GeoQuery q) {
    return of(q, MongoSettings.MaxDistance.DRAWN);
  }

  public static NearQuery of(GeoQuery q, MongoSettings.MaxDistance maxDistance) {
    Document near = new Document("$geometry", RestaurantDocuments.point(q.longitude(), q.latitude()))
        .append("$maxDistance", maxDistance == MongoSettings.MaxDistance.SCALED ? (Object) toServerMeters(q.maxDistanceMeters())
            : asDrawn(q.maxDistanceMeters()));
    if (q.minDistanceMeters() > 0) {
      near.append("$minDistance", toServerMeters(q.minDistanceMeters()));
    }
    Document filter = new Document(Restaurant.LOCATION, new Document("$nearSphere", near));
    if (q.filter() != null) {
      append(filter, q.filter());
    }
    if (!q.excludeIds().isEmpty()) {
      List<Long> ids = new ArrayList<>(q.excludeIds());
      ids.sort(null);  // a stable command text: the same query is the same bytes on the wire
      filter.append(Restaurant.ID, new Document("$nin", ids));
    }
    return new NearQuery(filter, q.skip(), q.limit());
  }

  /** Whole metres as an integer (the study's {@code randint} sent an int32); any other radius as it is. */
  static Object asDrawn(double meters) {
    if (meters == Math.rint(meters) && Math.abs(meters) <= Integer.MAX_VALUE) {
      return (int) meters;
    }
    return meters;
  }

  /** Workload metres (6,371 km sphere) to the server's metres (6,378.1 km sphere) for the same angle. */
  public static double toServerMeters(double workloadMeters) {
    return workloadMeters * SERVER_METERS_PER_WORKLOAD_METER;
  }

  private static void append(Document filter, AttributeFilter f) {
    if (f instanceof AttributeFilter.CuisineEquals c) {
      filter.append(Restaurant.CUISINE, c.cuisine());
    } else if (f instanceof AttributeFilter.RatingGreaterThan r) {
      filter.append(Restaurant.RATING, new Document("$gt", r.rating()));
    } else if (f instanceof AttributeFilter.OutsideAreaEquals o) {
      filter.append(Restaurant.OUTSIDE_AREA, o.outsideArea());
    } else if (f instanceof AttributeFilter.PricingEquals p) {
      filter.append(Restaurant.PRICING, p.pricing());
    } else {
      throw new IllegalArgumentException("unknown filter " + f);
    }
  }

  /** This query as the find a request path sends. */
  public RequestPath.Find toFind() {
    return RequestPath.Find.of(filter).skip(skip).limit(limit);
  }

  /** The {@code find} command the driver sends for this query (less its session fields), for review and tests. */
  public Document toFindCommand(String collection) {
    return toFind().toCommand(collection);
  }
}
