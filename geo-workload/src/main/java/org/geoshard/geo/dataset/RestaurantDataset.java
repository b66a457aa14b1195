package org.geoshard.geo.dataset;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.geoshard.geo.cities.City;
import org.geoshard.geo.contract.Restaurant;
import org.geoshard.harness.api.Seeds;

/**
 * The restaurant dataset as a pure function: restaurant k (0 &lt;= k &lt; {@link #size()}) depends only
 * on the cities, the scale, the placement and the seed, so that any split of a load (YCSB's
 * {@code insertstart}/{@code insertcount}, several clients) inserts exactly what one client would.
 * Memory is O(cities): nothing holds the restaurants.
 *
 * <p>Restaurants are numbered city by city in file order. With {@code scale} s, city i gets
 * {@code round(S(i+1)·s) - round(S(i)·s)} restaurants, where S(i) is the full-scale count of the
 * cities before i: the total is {@code round(S·s)}, each city gets its share rounded down or up, and
 * small cities may get none when s is small. With the study's formula, cities under 1,000 people may
 * get none at full scale too.
 */
public final class RestaurantDataset {
  public static final List<String> CUISINES = List.of("Italian", "French", "Japanese", "Polish", "Sushi", "Fastfood",
      "Home Meals", "Slowfood", "Burgers", "Pizza", "Chinese", "Fushion", "Vegan", "Vegetarian", "Seafood");
  public static final List<String> TYPES = List.of("Bar", "Restaurant", "Hotel", "Motel", "Food Truck", "Cafe", "Stand",
      "Dinner", "Bistro");
  public static final List<String> PRICINGS = List.of("$", "$$", "$$$");
  public static final int FIRST_OPENED = 1970;
  public static final int LAST_OPENED = 2022;

  private final List<City> cities;
  private final int[] radiusMeters;
  /** firstId[i] = number of the first restaurant of city i; firstId[n] = size. */
  private final long[] firstId;
  private final Placement placement;
  private final long restaurantSeeds;

  /** The dataset with the study's formula ({@link DatasetFormula#STUDY}). */
  public RestaurantDataset(List<City> cities, double scale, Placement placement, long seed) {
    this(cities, DatasetFormula.STUDY, scale, placement, seed);
  }

  public RestaurantDataset(List<City> cities, DatasetFormula formula, double scale, Placement placement, long seed) {
    if (!(scale > 0) || Double.isInfinite(scale)) {
      throw new IllegalArgumentException("scale must be positive: " + scale);
    }
    this.cities = List.copyOf(cities);
    this.placement = placement;
    this.restaurantSeeds = Seeds.stream(seed, "restaurant");
    int n = this.cities.size();
    radiusMeters = new int[n];
    firstId = new long[n + 1];
    long fullScaleBefore = 0;
    for (int i = 0; i < n; i++) {
      long population = this.cities.get(i).population();
      radiusMeters[i] = formula.radiusMeters(population);
      fullScaleBefore += formula.restaurants(population);
      firstId[i + 1] = Math.round(fullScaleBefore * scale);
    }
  }

  public long size() {
    return firstId[firstId.length - 1];
  }

  public List<City> cities() {
    return cities;
  }

  public int radiusMeters(int cityIndex) {
    return radiusMeters[cityIndex];
  }

  public long restaurantsIn(int cityIndex) {
    return firstId[cityIndex + 1] - firstId[cityIndex];
  }

  public Placement placement() {
    return placement;
  }

  /** The index of the city restaurant k belongs to. */
  public int cityOf(long k) {
    if (k < 0 || k >= size()) {
      throw new IndexOutOfBoundsException("restaurant " + k + " outside [0, " + size() + ")");
    }
    int found = Arrays.binarySearch(firstId, k);
    int index = found >= 0 ? found : -found - 2;
    // Cities with no restaurants share their firstId with the next city: take the last of them.
    while (firstId[index + 1] == k) {
      index++;
    }
    return index;
  }

  /** Restaurant number k, the same for the same seed every time. */
  public Restaurant restaurant(long k) {
    int cityIndex = cityOf(k);
    City city = cities.get(cityIndex);
    SplittableRandom random = new SplittableRandom(Seeds.at(restaurantSeeds, k));
    double[] point = placement.place(random, city.longitude(), city.latitude(), radiusMeters[cityIndex]);
    String cuisine = CUISINES.get(random.nextInt(CUISINES.size()));
    String type = TYPES.get(random.nextInt(TYPES.size()));
    int number = 1 + random.nextInt(1000);
    int opened = FIRST_OPENED + random.nextInt(LAST_OPENED - FIRST_OPENED + 1);
    int rating = 1 + random.nextInt(5);
    int reviews = 1 + random.nextInt(1000);
    String pricing = PRICINGS.get(random.nextInt(PRICINGS.size()));
    boolean outside = random.nextBoolean();
    return new Restaurant(k, cuisine + " " + type + " " + number, city.name(), cuisine, opened, rating, reviews,
        pricing, outside, point[0], point[1]);
  }
}
