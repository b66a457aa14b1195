package org.geoshard.geo.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SphereTest {
  @Test
  void destinationLiesAtTheRequestedDistance() {
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 10_000; i++) {
      double lon = random.nextDouble(-180, 180);
      double lat = random.nextDouble(-89, 89);
      double bearing = random.nextDouble(0, 2 * Math.PI);
      double distance = random.nextDouble(0, 60_000);
      double[] p = Sphere.destination(lon, lat, bearing, distance);
      assertThat(p[0]).isBetween(-180.0, 180.0);
      assertThat(p[1]).isBetween(-90.0, 90.0);
      assertThat(Sphere.distanceMeters(lon, lat, p[0], p[1])).isCloseTo(distance, within(1e-3));
    }
  }

  @Test
  void oneDegreeOfLatitudeIsAbout111Km() {
    assertThat(Sphere.distanceMeters(0, 0, 0, 1)).isCloseTo(Math.PI * 6_371_000 / 180, within(1e-6));
    double[] north = Sphere.destination(10, 0, 0, Math.PI * 6_371_000 / 180);
    assertThat(north[0]).isCloseTo(10, within(1e-9));
    assertThat(north[1]).isCloseTo(1, within(1e-9));
  }

  @Test
  void crossingTheAntimeridianWrapsTheLongitude() {
    double[] east = Sphere.destination(179.99, 0, Math.PI / 2, 5_000);
    assertThat(east[0]).isBetween(-180.0, -179.9);
    double[] west = Sphere.destination(-179.99, 10, 3 * Math.PI / 2, 5_000);
    assertThat(west[0]).isBetween(179.9, 180.0);
  }

  @Test
  void crossingAPoleKeepsTheLatitudeInRange() {
    double[] over = Sphere.destination(30, 89.99, 0, 10_000);
    assertThat(over[1]).isBetween(89.9, 90.0);
    assertThat(over[0]).isCloseTo(-150, within(1e-6));
  }

  @Test
  void wrapsLongitudes() {
    assertThat(Sphere.wrapLongitude(181)).isCloseTo(-179, within(1e-12));
    assertThat(Sphere.wrapLongitude(-181)).isCloseTo(179, within(1e-12));
    assertThat(Sphere.wrapLongitude(540)).isEqualTo(180);
    assertThat(Sphere.wrapLongitude(-180)).isEqualTo(-180);
  }
}
