package org.geoshard.geo.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DatasetFormulaTest {
  @Test
  void shanghaiGetsTheLargestScene() {
    assertThat(DatasetFormula.radiusMeters(22_315_474)).isEqualTo(44_927);
    assertThat(DatasetFormula.restaurants(22_315_474)).isEqualTo(100_000);
  }

  @Test
  void aThousandPersonCityGetsTheSmallest() {
    assertThat(DatasetFormula.radiusMeters(1_000)).isEqualTo(1_000);
    assertThat(DatasetFormula.restaurants(1_000)).isEqualTo(2);
  }

  @Test
  void missingOrSmallPopulationsCountAsAThousand() {
    for (long population : new long[] {0, 1, 107, 500, 999}) {
      assertThat(DatasetFormula.radiusMeters(population)).as("radius at %d", population).isEqualTo(1_000);
      assertThat(DatasetFormula.restaurants(population)).as("restaurants at %d", population).isEqualTo(2);
    }
  }

  @Test
  void aMidSizedCityFollowsTheFormula() {
    // Kraków, 755,050 people: p = 754,050 / 22,314,474 = 0.033791837...
    // radius = ceil(0.0337918 * 43,927 + 1,000) = ceil(2484.34) = 2,485
    // restaurants = ceil(0.0337918 * 99,998 + 2) = ceil(3381.11) = 3,382
    assertThat(DatasetFormula.radiusMeters(755_050)).isEqualTo(2_485);
    assertThat(DatasetFormula.restaurants(755_050)).isEqualTo(3_382);
  }
}
