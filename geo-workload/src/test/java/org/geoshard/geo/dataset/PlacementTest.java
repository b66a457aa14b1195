package org.geoshard.geo.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.geoshard.geo.ChiSquare;
import org.junit.jupiter.api.Test;

/** The placement rules tested as distributions, with chi-square at fixed seeds. */
class PlacementTest {
  private static final int N = 50_000;
  private static final int BINS = 10;
  private static final double RADIUS = 20_000;
  private static final double LON = 19.94;
  private static final double LAT = 50.06;

  private record Histograms(long[] distance, long[] distanceSquared, long[] bearing) {
  }

  private static Histograms sample(Placement placement, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    long[] distance = new long[BINS];
    long[] squared = new long[BINS];
    long[] bearing = new long[BINS];
    for (int i = 0; i < N; i++) {
      double[] p = placement.place(random, LON, LAT, RADIUS);
      double fraction = Sphere.distanceMeters(LON, LAT, p[0], p[1]) / RADIUS;
      assertThat(fraction).isLessThanOrEqualTo(1 + 1e-9);
      distance[bin(fraction)]++;
      squared[bin(fraction * fraction)]++;
      double dx = Math.toRadians(p[0] - LON) * Math.cos(Math.toRadians(LAT));
      double dy = Math.toRadians(p[1] - LAT);
      double angle = (Math.atan2(dx, dy) + 2 * Math.PI) % (2 * Math.PI);
      bearing[bin(angle / (2 * Math.PI))]++;
    }
    return new Histograms(distance, squared, bearing);
  }

  private static int bin(double fraction) {
    return Math.min(BINS - 1, (int) (fraction * BINS));
  }

  @Test
  void uniformDistanceIsUniformInDistanceAndAngle() {
    Histograms h = sample(Placement.UNIFORM_DISTANCE, 11);
    assertThat(ChiSquare.statistic(h.distance(), ChiSquare.uniform(BINS))).isLessThan(ChiSquare.critical999(BINS - 1));
    assertThat(ChiSquare.statistic(h.bearing(), ChiSquare.uniform(BINS))).isLessThan(ChiSquare.critical999(BINS - 1));
    // ... and therefore centre-heavy: not uniform over the area.
    assertThat(ChiSquare.statistic(h.distanceSquared(), ChiSquare.uniform(BINS))).isGreaterThan(1000);
  }

  @Test
  void uniformAreaIsUniformOverTheDisc() {
    Histograms h = sample(Placement.UNIFORM_AREA, 12);
    assertThat(ChiSquare.statistic(h.distanceSquared(), ChiSquare.uniform(BINS))).isLessThan(ChiSquare.critical999(BINS - 1));
    assertThat(ChiSquare.statistic(h.bearing(), ChiSquare.uniform(BINS))).isLessThan(ChiSquare.critical999(BINS - 1));
    assertThat(ChiSquare.statistic(h.distance(), ChiSquare.uniform(BINS))).isGreaterThan(1000);
  }
}
