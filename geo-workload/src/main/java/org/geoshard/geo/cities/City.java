package org.geoshard.geo.cities;

/**
 * A GeoNames city.
 *
 * @param population people; 0 when the source has no figure
 */
public record City(long geonameId, String name, String country, double latitude, double longitude, long population) {
}
