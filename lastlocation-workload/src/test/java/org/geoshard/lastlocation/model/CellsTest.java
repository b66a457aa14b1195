package org.geoshard.lastlocation.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.geoshard.geo.TestCities;
import org.geoshard.geo.cities.City;
import org.geoshard.geo.dataset.DatasetFormula;
import org.geoshard.geo.dataset.Sphere;
import org.junit.jupiter.api.Test;

class CellsTest {
  private static int cityOf(Cells cells, int cell) {
    int nearest = -1;
    double best = Double.MAX_VALUE;
    for (int c = 0; c < TestCities.FIVE.size(); c++) {
      City city = TestCities.FIVE.get(c);
      double d = Sphere.distanceMeters(city.longitude(), city.latitude(), cells.longitude(cell), cells.latitude(cell));
      if (d < best) {
        best = d;
        nearest = c;
      }
    }
    City city = TestCities.FIVE.get(nearest);
    assertThat(best).isLessThanOrEqualTo(DatasetFormula.FLOOR_1000.radiusMeters(city.population()) + 1e-6);
    return nearest;
  }

  @Test
  void biggerCitiesGetMoreCellsInProportion() {
    Cells cells = new Cells(TestCities.FIVE, 10_000, 1);
    long[] perCity = new long[TestCities.FIVE.size()];
    for (int j = 0; j < cells.count(); j++) {
      perCity[cityOf(cells, j)]++;
    }
    double total = TestCities.FIVE.stream().mapToLong(c -> Math.max(1000, c.population())).sum();
    for (int c = 0; c < perCity.length; c++) {
      double expected = 10_000 * Math.max(1000, TestCities.FIVE.get(c).population()) / total;
      // Cells are dealt by cumulative share: each city gets its share rounded, never off by more than one.
      assertThat((double) perCity[c]).as("city %d", c).isCloseTo(expected, org.assertj.core.api.Assertions.within(1.0));
    }
  }

  @Test
  void aNearbyCellIsInTheSameCity() {
    Cells cells = new Cells(TestCities.FIVE, 2_000, 2);
    SplittableRandom random = new SplittableRandom(3);
    for (int i = 0; i < 2_000; i++) {
      int cell = random.nextInt(cells.count());
      int next = cells.nearby(cell, random);
      assertThat(cityOf(cells, next)).isEqualTo(cityOf(cells, cell));
    }
  }
}
