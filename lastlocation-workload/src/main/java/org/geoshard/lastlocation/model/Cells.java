package org.geoshard.lastlocation.model;

import java.util.List;
import java.util.SplittableRandom;
import org.geoshard.geo.cities.City;
import org.geoshard.geo.dataset.DatasetFormula;
import org.geoshard.geo.dataset.Placement;
import org.geoshard.harness.api.Seeds;

/**
 * Cell towers placed around cities, more around bigger ones: cell j belongs to the city whose share
 * of the total population (each counted as at least 1,000) covers the point (j + 0.5) / cells, and
 * stands uniformly within that city's radius. Cells of a city are numbered consecutively, so "a
 * nearby cell" is another cell of the same range.
 */
public final class Cells {
  private final double[] longitude;
  private final double[] latitude;
  private final int[] firstOfCity;
  private final int[] lastOfCity;

  public Cells(List<City> cities, int count, long seed) {
    if (count < 1) {
      throw new IllegalArgumentException("at least one cell: " + count);
    }
    double[] cumulative = new double[cities.size()];
    double total = 0;
    for (int i = 0; i < cities.size(); i++) {
      total += Math.max(DatasetFormula.MIN_POPULATION, cities.get(i).population());
      cumulative[i] = total;
    }
    longitude = new double[count];
    latitude = new double[count];
    firstOfCity = new int[count];
    lastOfCity = new int[count];
    long cellSeeds = Seeds.stream(seed, "cell");
    int city = 0;
    int first = 0;
    for (int j = 0; j < count; j++) {
      double point = (j + 0.5) / count * total;
      int previous = city;
      while (cumulative[city] < point) {
        city++;
      }
      if (city != previous) {
        fillCity(first, j);
        first = j;
      }
      City c = cities.get(city);
      double[] p = Placement.UNIFORM_AREA.place(new SplittableRandom(Seeds.at(cellSeeds, j)), c.longitude(),
          c.latitude(), DatasetFormula.FLOOR_1000.radiusMeters(c.population()));
      longitude[j] = p[0];
      latitude[j] = p[1];
    }
    fillCity(first, count);
  }

  private void fillCity(int from, int to) {
    for (int j = from; j < to; j++) {
      firstOfCity[j] = from;
      lastOfCity[j] = to - 1;
    }
  }

  public int count() {
    return longitude.length;
  }

  public double longitude(int cell) {
    return longitude[cell];
  }

  public double latitude(int cell) {
    return latitude[cell];
  }

  /** A cell of the same city as {@code cell}, uniformly (possibly the same one). */
  public int nearby(int cell, SplittableRandom random) {
    int first = firstOfCity[cell];
    return first + random.nextInt(lastOfCity[cell] - first + 1);
  }

  /** How many cells share {@code cell}'s city. */
  public int cellsInCity(int cell) {
    return lastOfCity[cell] - firstOfCity[cell] + 1;
  }
}
