package org.geoshard.mongodb;

import java.util.List;
import org.bson.Document;
import org.geoshard.geo.contract.Restaurant;

/**
 * Restaurants as MongoDB documents, the study's shape: {@code _id} the restaurant's number (a long),
 * its fields by {@link Restaurant}'s names, and {@code location} a GeoJSON point [longitude, latitude].
 */
public final class RestaurantDocuments {
  private RestaurantDocuments() {
  }

  public static Document toDocument(Restaurant r) {
    return new Document(Restaurant.ID, r.id())
        .append(Restaurant.NAME, r.name())
        .append(Restaurant.CITY, r.city())
        .append(Restaurant.CUISINE, r.cuisine())
        .append(Restaurant.OPENED, r.opened())
        .append(Restaurant.RATING, r.rating())
        .append(Restaurant.REVIEWS, r.reviews())
        .append(Restaurant.PRICING, r.pricing())
        .append(Restaurant.OUTSIDE_AREA, r.outsideArea())
        .append(Restaurant.LOCATION, point(r.longitude(), r.latitude()));
  }

  /** A GeoJSON point. */
  public static Document point(double longitude, double latitude) {
    return new Document("type", "Point").append("coordinates", List.of(longitude, latitude));
  }

  /**
   * Reads a document back; numbers are accepted in any BSON numeric type (a collection loaded by
   * {@code mongoimport} holds ints where the binding writes longs).
   *
   * @throws IllegalArgumentException naming the field that is missing or of the wrong type
   */
  public static Restaurant fromDocument(Document d) {
    Document location = get(d, Restaurant.LOCATION, Document.class);
    List<?> coordinates = get(location, "coordinates", List.class);
    if (coordinates.size() != 2) {
      throw new IllegalArgumentException("restaurant " + d.get(Restaurant.ID) + ": location.coordinates must hold 2 numbers");
    }
    return new Restaurant(
        get(d, Restaurant.ID, Number.class).longValue(),
        get(d, Restaurant.NAME, String.class),
        get(d, Restaurant.CITY, String.class),
        get(d, Restaurant.CUISINE, String.class),
        get(d, Restaurant.OPENED, Number.class).intValue(),
        get(d, Restaurant.RATING, Number.class).intValue(),
        get(d, Restaurant.REVIEWS, Number.class).intValue(),
        get(d, Restaurant.PRICING, String.class),
        get(d, Restaurant.OUTSIDE_AREA, Boolean.class),
        ((Number) coordinates.get(0)).doubleValue(),
        ((Number) coordinates.get(1)).doubleValue());
  }

  private static <T> T get(Document d, String field, Class<T> type) {
    Object value = d.get(field);
    if (!type.isInstance(value)) {
      throw new IllegalArgumentException("restaurant " + d.get(Restaurant.ID) + ": field '" + field + "' is "
          + (value == null ? "missing" : "a " + value.getClass().getSimpleName()) + ", expected a " + type.getSimpleName());
    }
    return type.cast(value);
  }
}
