package org.geoshard.geo.query;

import java.util.SplittableRandom;
import org.geoshard.geo.GeoSettings;
import org.geoshard.geo.cities.City;
import org.geoshard.geo.contract.AttributeFilter;
import org.geoshard.geo.contract.GeoQuery;
import org.geoshard.geo.dataset.RestaurantDataset;

/**
 * Draws the queries of the study: a centre at a random point within the radius of a city chosen
 * uniformly from all cities (same placement rule as the restaurants), a search radius uniform in
 * [{@code geo.radius.min}, {@code geo.radius.max}] metres, and one uniformly chosen attribute filter.
 */
public final class QueryGenerator {
  private final RestaurantDataset dataset;
  private final int minRadius;
  private final int maxRadius;
  private final int pageSize;

  public QueryGenerator(RestaurantDataset dataset, GeoSettings settings) {
    this.dataset = dataset;
    this.minRadius = settings.minRadiusMeters();
    this.maxRadius = settings.maxRadiusMeters();
    this.pageSize = settings.pageSize();
  }

  /** The first page of an unfiltered near query around a random city. */
  public GeoQuery basic(SplittableRandom random) {
    int cityIndex = random.nextInt(dataset.cities().size());
    City city = dataset.cities().get(cityIndex);
    double[] centre = dataset.placement().place(random, city.longitude(), city.latitude(), dataset.radiusMeters(cityIndex));
    int radius = minRadius + random.nextInt(maxRadius - minRadius + 1);
    return GeoQuery.firstPage(centre[0], centre[1], radius, pageSize);
  }

  /** One of the four filter kinds, uniformly, with a uniform value. */
  public AttributeFilter filter(SplittableRandom random) {
    return switch (random.nextInt(4)) {
      case 0 -> new AttributeFilter.CuisineEquals(
          RestaurantDataset.CUISINES.get(random.nextInt(RestaurantDataset.CUISINES.size())));
      case 1 -> new AttributeFilter.RatingGreaterThan(random.nextInt(5));
      case 2 -> new AttributeFilter.OutsideAreaEquals(random.nextBoolean());
      default -> new AttributeFilter.PricingEquals(
          RestaurantDataset.PRICINGS.get(random.nextInt(RestaurantDataset.PRICINGS.size())));
    };
  }
}
