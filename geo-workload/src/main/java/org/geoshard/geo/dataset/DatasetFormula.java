package org.geoshard.geo.dataset;

/**
 * The study's rule for how big a city's restaurant scene is. With population {@code pop} and
 * {@code p = (pop - 1000) / (22,315,474 - 1000)} (Shanghai, the largest city, gives p = 1):
 * radius {@code = ceil(p * (44,927 - 1,000) + 1,000)} metres and
 * restaurants {@code = ceil(p * (100,000 - 2) + 2)}, none when that is 0 or less.
 *
 * <p>Two readings differ only for populations under 1,000. {@link #STUDY} is the study's generator
 * exactly: a population of 0 (no figure) counts as 1,000 and any other goes through the formula as it
 * is, so a city of 1 to 999 people gets 0, 1 or 2 restaurants within a radius just under 1 km (Python's
 * {@code range()} of a count of 0 or less makes none). {@link #FLOOR_1000} counts every population
 * under 1,000 as 1,000, so every city gets at least 2 restaurants within 1 km.
 *
 * <p>The arithmetic is the generator's, operation for operation, in IEEE doubles (Python's floats):
 * {@code (pop - 1000) / 22,314,474} is a correctly rounded quotient in both languages.
 */
public enum DatasetFormula {
  STUDY {
    @Override
    long effectivePopulation(long population) {
      return population == 0 ? MIN_POPULATION : population;
    }
  },
  FLOOR_1000 {
    @Override
    long effectivePopulation(long population) {
      return Math.max(population, MIN_POPULATION);
    }
  };

  public static final long MIN_POPULATION = 1_000;
  public static final long MAX_POPULATION = 22_315_474;
  public static final int MIN_RADIUS_METERS = 1_000;
  public static final int MAX_RADIUS_METERS = 44_927;
  public static final int MIN_RESTAURANTS = 2;
  public static final int MAX_RESTAURANTS = 100_000;

  /** The population the formula is applied to. */
  abstract long effectivePopulation(long population);

  double share(long population) {
    return (effectivePopulation(population) - MIN_POPULATION) / (double) (MAX_POPULATION - MIN_POPULATION);
  }

  public int radiusMeters(long population) {
    return (int) Math.ceil(share(population) * (MAX_RADIUS_METERS - MIN_RADIUS_METERS) + MIN_RADIUS_METERS);
  }

  public long restaurants(long population) {
    return Math.max(0, (long) Math.ceil(share(population) * (MAX_RESTAURANTS - MIN_RESTAURANTS) + MIN_RESTAURANTS));
  }
}
