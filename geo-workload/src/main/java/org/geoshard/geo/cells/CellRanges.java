package org.geoshard.geo.cells;

import java.util.Arrays;

/**
 * The key ranges of a ranged {@code cell} shard key: {@code N} contiguous stretches of the cell ids,
 * balanced by restaurant count, each starting at a cell that holds restaurants. Range 0 starts at the
 * lowest possible id and range {@code N-1} ends past the highest, so every id falls in one range:
 * range {@code i} holds the ids {@code >= lowerBound(i)} (none for {@code i = 0}) and
 * {@code < lowerBound(i + 1)}. Immutable.
 */
public final class CellRanges {
  /** splits[i-1] is the lowest cell id of range i (i >= 1). */
  private final long[] splits;
  private final long[] restaurants;

  private CellRanges(long[] splits, long[] restaurants) {
    this.splits = splits;
    this.restaurants = restaurants;
  }

  /**
   * Splits the cells into {@code n} ranges: the i-th boundary goes before or after the cell where the
   * running count crosses {@code i/n} of the restaurants, whichever lands closer. A cell is never cut,
   * so a range is as balanced as its largest cell allows.
   *
   * @throws IllegalArgumentException when there are fewer cells with restaurants than ranges
   */
  public static CellRanges balanced(CellCounts counts, int n) {
    if (n < 1) {
      throw new IllegalArgumentException("at least one range: " + n);
    }
    if (counts.size() < n) {
      throw new IllegalArgumentException("Only " + counts.size() + " cells hold restaurants, fewer than the "
          + n + " ranges wanted: use a finer geo.cells.level or a larger geo.scale.");
    }
    long[] before = new long[counts.size() + 1];
    for (int i = 0; i < counts.size(); i++) {
      before[i + 1] = before[i] + counts.count(i);
    }
    int[] boundary = new int[n + 1];
    boundary[n] = counts.size();
    for (int i = 1; i < n; i++) {
      double target = (double) counts.total() * i / n;
      int j = 0;
      while (j < counts.size() && before[j + 1] < target) {
        j++;
      }
      // Cell j is where the running count reaches the target: cut before it or after it.
      int cut = target - before[j] <= before[Math.min(j + 1, counts.size())] - target ? j : j + 1;
      // Every range keeps at least one cell, and leaves one for each range after it.
      cut = Math.max(cut, boundary[i - 1] + 1);
      cut = Math.min(cut, counts.size() - (n - i));
      boundary[i] = cut;
    }
    long[] splits = new long[n - 1];
    long[] restaurants = new long[n];
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        splits[i - 1] = counts.cell(boundary[i]);
      }
      restaurants[i] = before[boundary[i + 1]] - before[boundary[i]];
    }
    return new CellRanges(splits, restaurants);
  }

  public int size() {
    return restaurants.length;
  }

  /** The lowest cell id of range {@code i} (1 <= i < size()); range 0 has no lower bound. */
  public long lowerBound(int i) {
    if (i < 1 || i >= size()) {
      throw new IndexOutOfBoundsException("range " + i + " has no lower bound among " + size() + " ranges");
    }
    return splits[i - 1];
  }

  /** The lower bounds of ranges 1 .. size()-1, ascending. */
  public long[] lowerBounds() {
    return splits.clone();
  }

  /** The range that holds a cell id. */
  public int rangeOf(long cell) {
    int found = Arrays.binarySearch(splits, cell);
    return found >= 0 ? found + 1 : -found - 1;
  }

  /** The restaurants of range {@code i}. */
  public long restaurants(int i) {
    return restaurants[i];
  }

  /** The restaurants of every range, in range order. */
  public long[] restaurantsPerRange() {
    return restaurants.clone();
  }

  /** The largest range's restaurants over the smallest's (1 is perfect balance). */
  public double maxOverMin() {
    long max = Arrays.stream(restaurants).max().orElse(0);
    long min = Arrays.stream(restaurants).min().orElse(0);
    return min == 0 ? Double.POSITIVE_INFINITY : (double) max / min;
  }
}
