package org.geoshard.geo.cells;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.geoshard.geo.contract.Restaurant;
import org.geoshard.geo.dataset.RestaurantDataset;

/**
 * How many restaurants of a dataset fall in each cell of a grid, cells sorted by id (signed). The
 * dataset is a pure function of its settings, so every client and the preparation compute the same
 * counts without reading the database. Immutable.
 */
public final class CellCounts {
  private final int level;
  private final long[] cells;
  private final long[] counts;
  private final long total;

  CellCounts(int level, long[] cells, long[] counts) {
    if (cells.length != counts.length) {
      throw new IllegalArgumentException("cells and counts differ in length");
    }
    for (int i = 1; i < cells.length; i++) {
      if (cells[i - 1] >= cells[i]) {
        throw new IllegalArgumentException("cells must be sorted and distinct");
      }
    }
    this.level = level;
    this.cells = cells.clone();
    this.counts = counts.clone();
    this.total = Arrays.stream(counts).sum();
  }

  /**
   * Generates every restaurant of the dataset once (about 4 million a second) and counts them per
   * cell. Restaurants are numbered city by city, so a small map per city keeps the work and the
   * garbage proportional to the cities.
   */
  public static CellCounts of(RestaurantDataset dataset, CellGrid grid) {
    Map<Long, Long> perCell = new HashMap<>();
    long k = 0;
    for (int city = 0; city < dataset.cities().size(); city++) {
      long end = k + dataset.restaurantsIn(city);
      Map<Long, Long> cityCells = new HashMap<>();
      for (; k < end; k++) {
        Restaurant r = dataset.restaurant(k);
        cityCells.merge(grid.cellOf(r.longitude(), r.latitude()), 1L, Long::sum);
      }
      cityCells.forEach((cell, n) -> perCell.merge(cell, n, Long::sum));
    }
    long[] cells = perCell.keySet().stream().mapToLong(Long::longValue).sorted().toArray();
    long[] counts = new long[cells.length];
    for (int i = 0; i < cells.length; i++) {
      counts[i] = perCell.get(cells[i]);
    }
    return new CellCounts(grid.level(), cells, counts);
  }

  /** For tests and callers that know their counts: cells sorted by id, each with its restaurants. */
  public static CellCounts of(int level, long[] cells, long[] counts) {
    return new CellCounts(level, cells, counts);
  }

  public int level() {
    return level;
  }

  /** The number of cells that hold at least one restaurant. */
  public int size() {
    return cells.length;
  }

  public long cell(int index) {
    return cells[index];
  }

  public long count(int index) {
    return counts[index];
  }

  public long total() {
    return total;
  }
}
