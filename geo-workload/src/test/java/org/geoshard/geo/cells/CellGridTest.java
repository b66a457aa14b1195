package org.geoshard.geo.cells;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.geometry.S2CellId;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.geoshard.geo.contract.GeoQuery;
import org.geoshard.geo.dataset.Sphere;
import org.junit.jupiter.api.Test;

class CellGridTest {
  private final CellGrid grid = new CellGrid(CellSettings.DEFAULT_LEVEL);

  @Test
  void aLocationsCellIsTheS2CellOfTheLevelThatHoldsIt() {
    long cell = grid.cellOf(19.93658, 50.06143);
    S2CellId id = new S2CellId(cell);
    assertThat(id.isValid()).isTrue();
    assertThat(id.level()).isEqualTo(7);
    assertThat(id.toLatLng().getDistance(com.google.common.geometry.S2LatLng.fromDegrees(50.06143, 19.93658))
        .radians() * Sphere.EARTH_RADIUS_METERS).isLessThan(100_000);
    // Neighbours within a few hundred metres share the cell nearly always; far-away places never do.
    assertThat(grid.cellOf(2.3488, 48.85341)).isNotEqualTo(cell);
  }

  @Test
  void theCoveringHoldsTheCellOfEveryPointWithinTheRadiusAndNothingOfOtherLevels() {
    SplittableRandom random = new SplittableRandom(17);
    for (int q = 0; q < 2_000; q++) {
      double lon = random.nextDouble(-180, 180);
      double lat = random.nextDouble(-89.9, 89.9);
      double radius = random.nextDouble(5_000, 50_000);
      long[] covering = grid.covering(GeoQuery.firstPage(lon, lat, radius, 10));
      assertThat(covering).isNotNull().isSorted();
      assertThat(Arrays.stream(covering).mapToInt(c -> new S2CellId(c).level()).distinct()).containsOnly(7);
      for (int p = 0; p < 20; p++) {
        // Points on and just inside the rim are where a tight covering would fail.
        double distance = radius * (p < 10 ? 1 : random.nextDouble());
        double[] point = Sphere.destination(lon, lat, random.nextDouble(0, 2 * Math.PI), distance);
        assertThat(Arrays.binarySearch(covering, grid.cellOf(point[0], point[1])))
            .as("point %s km from %s,%s", distance / 1000, lon, lat).isGreaterThanOrEqualTo(0);
      }
    }
  }

  @Test
  void aStudyQueryCoversAHandfulOfCells() {
    assertThat(grid.covering(0.1, 51.5, 5_000).length).isBetween(1, 4);
    assertThat(grid.covering(0.1, 51.5, 50_000).length).isBetween(2, 12);
  }

  @Test
  void aCapOfThousandsOfKilometresHasNoCovering() {
    assertThat(grid.covering(0, 0, 5_000_000)).isNull();
  }

  @Test
  void levelsOutsideS2AreRefused() {
    assertThatThrownBy(() -> new CellGrid(31)).isInstanceOf(IllegalArgumentException.class);
  }
}
