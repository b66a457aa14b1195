package org.geoshard.geo.contract;

/** One result of a near query: the restaurant as read from the database and its distance in metres. */
public record GeoHit(Restaurant restaurant, double distanceMeters) {
}
