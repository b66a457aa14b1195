package org.geoshard.geo.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DatasetFormulaTest {
  @Test
  void shanghaiGetsTheLargestScene() {
    assertThat(DatasetFormula.STUDY.radiusMeters(22_315_474)).isEqualTo(44_927);
    assertThat(DatasetFormula.STUDY.restaurants(22_315_474)).isEqualTo(100_000);
  }

  @Test
  void aThousandPersonCityGetsTheSmallest() {
    assertThat(DatasetFormula.STUDY.radiusMeters(1_000)).isEqualTo(1_000);
    assertThat(DatasetFormula.STUDY.restaurants(1_000)).isEqualTo(2);
  }

  @Test
  void onlyAMissingPopulationCountsAsAThousand() {
    assertThat(DatasetFormula.STUDY.radiusMeters(0)).isEqualTo(1_000);
    assertThat(DatasetFormula.STUDY.restaurants(0)).isEqualTo(2);
    // 107 people: p = -893 / 22,314,474; restaurants = ceil(-4.00 + 2) = -2, so none; radius ceil(998.2) = 999
    assertThat(DatasetFormula.STUDY.restaurants(107)).isZero();
    assertThat(DatasetFormula.STUDY.radiusMeters(107)).isEqualTo(999);
    // 999 people: ceil(-0.0045 + 2) = 2
    assertThat(DatasetFormula.STUDY.restaurants(999)).isEqualTo(2);
  }

  @Test
  void aMidSizedCityFollowsTheFormula() {
    // Kraków, 755,050 people: p = 754,050 / 22,314,474 = 0.033791837...
    // radius = ceil(0.0337918 * 43,927 + 1,000) = ceil(2484.34) = 2,485
    // restaurants = ceil(0.0337918 * 99,998 + 2) = ceil(3381.11) = 3,382
    assertThat(DatasetFormula.STUDY.radiusMeters(755_050)).isEqualTo(2_485);
    assertThat(DatasetFormula.STUDY.restaurants(755_050)).isEqualTo(3_382);
  }
}
