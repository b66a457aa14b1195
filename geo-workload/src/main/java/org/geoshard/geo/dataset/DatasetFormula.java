package org.geoshard.geo.dataset;

/**
 * The study's rule for how big a city's restaurant scene is. With population {@code pop} and
 * {@code p = (pop - 1000) / (22,315,474 - 1000)} (Shanghai, the largest city, gives p = 1):
 * radius {@code = ceil(p * (44,927 - 1,000) + 1,000)} metres and
 * restaurants {@code = ceil(p * (100,000 - 2) + 2)}.
 *
 * <p>A population under 1,000 (missing, 0, or one of the places GeoNames keeps after its figure fell
 * below 1,000) counts as 1,000: the formula would otherwise give radii under 1 km and zero or negative
 * counts, which the study's data set did not contain.
 */
public final class DatasetFormula {
  public static final long MIN_POPULATION = 1_000;
  public static final long MAX_POPULATION = 22_315_474;
  public static final int MIN_RADIUS_METERS = 1_000;
  public static final int MAX_RADIUS_METERS = 44_927;
  public static final int MIN_RESTAURANTS = 2;
  public static final int MAX_RESTAURANTS = 100_000;

  private DatasetFormula() {
  }

  static double share(long population) {
    long pop = Math.max(population, MIN_POPULATION);
    return (pop - MIN_POPULATION) / (double) (MAX_POPULATION - MIN_POPULATION);
  }

  public static int radiusMeters(long population) {
    return (int) Math.ceil(share(population) * (MAX_RADIUS_METERS - MIN_RADIUS_METERS) + MIN_RADIUS_METERS);
  }

  public static long restaurants(long population) {
    return (long) Math.ceil(share(population) * (MAX_RESTAURANTS - MIN_RESTAURANTS) + MIN_RESTAURANTS);
  }
}
