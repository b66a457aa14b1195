package org.geoshard.geo.cells;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.geoshard.geo.TestCities;
import org.geoshard.geo.contract.Restaurant;
import org.geoshard.geo.dataset.Placement;
import org.geoshard.geo.dataset.RestaurantDataset;
import org.junit.jupiter.api.Test;

class CellCountsTest {
  @Test
  void countsEveryRestaurantInTheCellOfItsLocation() {
    RestaurantDataset dataset = new RestaurantDataset(TestCities.FIVE, 0.05, Placement.UNIFORM_DISTANCE, 3);
    CellGrid grid = new CellGrid(7);
    CellCounts counts = CellCounts.of(dataset, grid);
    Map<Long, Long> expected = new HashMap<>();
    for (long k = 0; k < dataset.size(); k++) {
      Restaurant r = dataset.restaurant(k);
      expected.merge(grid.cellOf(r.longitude(), r.latitude()), 1L, Long::sum);
    }
    assertThat(counts.total()).isEqualTo(dataset.size());
    assertThat(counts.size()).isEqualTo(expected.size());
    for (int i = 0; i < counts.size(); i++) {
      assertThat(counts.count(i)).isEqualTo(expected.get(counts.cell(i)));
      if (i > 0) {
        assertThat(counts.cell(i)).isGreaterThan(counts.cell(i - 1));
      }
    }
  }
}
