package org.geoshard.geo;

/** Pearson's chi-square goodness of fit, with critical values at α = 0.001. */
public final class ChiSquare {
  private ChiSquare() {
  }

  public static double statistic(long[] observed, double[] expectedShares) {
    long n = 0;
    for (long o : observed) {
      n += o;
    }
    double chi = 0;
    for (int i = 0; i < observed.length; i++) {
      double expected = n * expectedShares[i];
      chi += (observed[i] - expected) * (observed[i] - expected) / expected;
    }
    return chi;
  }

  public static double[] uniform(int bins) {
    double[] shares = new double[bins];
    java.util.Arrays.fill(shares, 1.0 / bins);
    return shares;
  }

  /** The 99.9th percentile of the chi-square distribution with {@code df} degrees of freedom. */
  public static double critical999(int df) {
    return switch (df) {
      case 1 -> 10.828;
      case 2 -> 13.816;
      case 3 -> 16.266;
      case 4 -> 18.467;
      case 8 -> 26.124;
      case 9 -> 27.877;
      case 14 -> 36.123;
      default -> throw new IllegalArgumentException("no table entry for df " + df);
    };
  }
}
