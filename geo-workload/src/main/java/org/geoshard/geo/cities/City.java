package org.geoshard.geo.cities;

/**
 * A GeoNames city.
 *
 * @param geonameId GeoNames' id; 0 when the source has none
 * @param country ISO country code; empty when the source has none
 * @param population people; 0 when the source has no figure
 */
public record City(long geonameId, String name, String country, double latitude, double longitude, long population) {
}
