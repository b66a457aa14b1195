package org.geoshard.geo.contract;

/** The one extra condition of a filtered near query; bindings translate each kind to their language. */
public sealed interface AttributeFilter {

  /** True when the restaurant passes the filter (the reference semantics bindings must match). */
  boolean test(Restaurant restaurant);

  /** {@code Cuisine} equals a value. */
  record CuisineEquals(String cuisine) implements AttributeFilter {
    @Override
    public boolean test(Restaurant restaurant) {
      return restaurant.cuisine().equals(cuisine);
    }
  }

  /** {@code Rating} strictly greater than a value. */
  record RatingGreaterThan(int rating) implements AttributeFilter {
    @Override
    public boolean test(Restaurant restaurant) {
      return restaurant.rating() > rating;
    }
  }

  /** {@code Outside_area} equals a value. */
  record OutsideAreaEquals(boolean outsideArea) implements AttributeFilter {
    @Override
    public boolean test(Restaurant restaurant) {
      return restaurant.outsideArea() == outsideArea;
    }
  }

  /** {@code Pricing} equals a value ($, $$ or $$$). */
  record PricingEquals(String pricing) implements AttributeFilter {
    @Override
    public boolean test(Restaurant restaurant) {
      return restaurant.pricing().equals(pricing);
    }
  }
}
