package org.geoshard.geo.cells;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CellRangesTest {
  private static final long[] CELLS = {-900, -50, 10, 20, 30, 40, 50, 60};

  @Test
  void rangesAreBalancedByRestaurantsAndCoverEveryId() {
    CellCounts counts = CellCounts.of(7, CELLS, new long[] {10, 10, 10, 10, 10, 10, 10, 10});
    CellRanges ranges = CellRanges.balanced(counts, 4);
    assertThat(ranges.lowerBounds()).containsExactly(10, 30, 50);
    assertThat(ranges.rangeOf(Long.MIN_VALUE)).isZero();
    assertThat(ranges.rangeOf(-50)).isZero();
    assertThat(ranges.rangeOf(10)).isEqualTo(1);
    assertThat(ranges.rangeOf(29)).isEqualTo(1);
    assertThat(ranges.rangeOf(30)).isEqualTo(2);
    assertThat(ranges.rangeOf(Long.MAX_VALUE)).isEqualTo(3);
    assertThat(ranges.maxOverMin()).isEqualTo(1.0);
  }

  @Test
  void theCutGoesOnTheSideOfTheCellNearerTheTarget() {
    // 100 restaurants: the half-way target 50 is crossed inside the cell 20 (running 45 -> 85): cut before it.
    CellCounts counts = CellCounts.of(7, new long[] {10, 20, 30}, new long[] {45, 40, 15});
    CellRanges ranges = CellRanges.balanced(counts, 2);
    assertThat(ranges.lowerBounds()).containsExactly(20);
    assertThat(ranges.restaurants(0)).isEqualTo(45);
    assertThat(ranges.restaurants(1)).isEqualTo(55);
    assertThat(ranges.restaurantsPerRange()).containsExactly(45, 55);
  }

  @Test
  void aHugeCellStillLeavesEveryRangeACell() {
    CellCounts counts = CellCounts.of(7, new long[] {1, 2, 3}, new long[] {1, 1000, 1});
    CellRanges ranges = CellRanges.balanced(counts, 3);
    assertThat(ranges.lowerBounds()).containsExactly(2, 3);
    assertThat(ranges.restaurants(1)).isEqualTo(1000);
  }

  @Test
  void fewerCellsThanRangesIsRefusedWithAdvice() {
    CellCounts counts = CellCounts.of(7, new long[] {1, 2}, new long[] {5, 5});
    assertThatThrownBy(() -> CellRanges.balanced(counts, 3)).hasMessageContaining("geo.cells.level");
  }

  @Test
  void oneRangeHoldsEverything() {
    CellRanges ranges = CellRanges.balanced(CellCounts.of(7, CELLS, new long[] {1, 2, 3, 4, 5, 6, 7, 8}), 1);
    assertThat(ranges.lowerBounds()).isEmpty();
    assertThat(ranges.rangeOf(12345)).isZero();
    assertThat(ranges.restaurants(0)).isEqualTo(36);
  }
}
