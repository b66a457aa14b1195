package org.geoshard.harness.stats;

/** Two-sided 95% quantiles of Student's t distribution. */
final class StudentT {
  private static final double[] Q975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
      2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060,
      2.056, 2.052, 2.048, 2.045, 2.042};

  private StudentT() {
  }

  /** The 97.5th percentile with {@code df} degrees of freedom (exact to 3 decimals up to 30, then approximated). */
  static double quantile975(int df) {
    if (df < 1) {
      throw new IllegalArgumentException("degrees of freedom must be at least 1: " + df);
    }
    if (df <= Q975.length) {
      return Q975[df - 1];
    }
    // Cornish-Fisher expansion around the normal quantile 1.959964; error below 1e-3 for df > 30.
    double z = 1.959964;
    double g1 = (z * z * z + z) / 4;
    double g2 = (5 * Math.pow(z, 5) + 16 * z * z * z + 3 * z) / 96;
    return z + g1 / df + g2 / ((double) df * df);
  }
}
