package org.geoshard.geo.contract;

import java.util.Objects;
import java.util.Set;

/**
 * "The {@code limit} restaurants nearest to a centre, within {@code maxDistanceMeters}, optionally
 * filtered, after a page offset": distances are spherical (great circle) in metres, ties broken by id.
 *
 * <p>Paging is either by {@code skip} (the study's: the server walks past the earlier results) or by
 * {@code minDistanceMeters} (only results at least that far; ids in {@code excludeIds}, those of the
 * previous page at exactly that distance, are left out), which stays fast on deep pages.
 *
 * @param filter null for no extra condition
 */
public record GeoQuery(double longitude, double latitude, double maxDistanceMeters, AttributeFilter filter, int skip,
                       double minDistanceMeters, Set<Long> excludeIds, int limit) {

  public GeoQuery {
    if (!(longitude >= -180 && longitude <= 180 && latitude >= -90 && latitude <= 90)) {
      throw new IllegalArgumentException("centre out of range: " + longitude + ", " + latitude);
    }
    if (!(maxDistanceMeters > 0) || minDistanceMeters < 0 || minDistanceMeters > maxDistanceMeters) {
      throw new IllegalArgumentException("distances out of range: min " + minDistanceMeters + ", max " + maxDistanceMeters);
    }
    if (skip < 0 || limit < 1) {
      throw new IllegalArgumentException("skip must be >= 0 and limit >= 1: " + skip + ", " + limit);
    }
    excludeIds = Set.copyOf(Objects.requireNonNull(excludeIds, "excludeIds"));
  }

  /** The first page of an unfiltered query. */
  public static GeoQuery firstPage(double longitude, double latitude, double maxDistanceMeters, int limit) {
    return new GeoQuery(longitude, latitude, maxDistanceMeters, null, 0, 0, Set.of(), limit);
  }

  public GeoQuery withFilter(AttributeFilter newFilter) {
    return new GeoQuery(longitude, latitude, maxDistanceMeters, newFilter, skip, minDistanceMeters, excludeIds, limit);
  }

  public GeoQuery withSkip(int newSkip) {
    return new GeoQuery(longitude, latitude, maxDistanceMeters, filter, newSkip, minDistanceMeters, excludeIds, limit);
  }

  public GeoQuery withMinDistance(double meters, Set<Long> exclude) {
    return new GeoQuery(longitude, latitude, maxDistanceMeters, filter, skip, meters, exclude, limit);
  }
}
