package org.geoshard.harness.stats;

/**
 * A 95% confidence interval for the mean of an autocorrelated series (per-second throughput) by
 * non-overlapping batch means. Per-second values of a load test are not independent; treating them
 * as such gives intervals far too narrow. The series is cut into batches of length b, doubling b
 * until the lag-1 autocorrelation of the batch means falls below {@value #MAX_LAG1_CORRELATION}
 * while at least {@value #MIN_BATCHES} batches remain; the interval is then Student's t over the
 * batch means. Values left over after the last full batch are not used for the interval.
 */
public final class BatchMeans {
  public static final double MAX_LAG1_CORRELATION = 0.2;
  public static final int MIN_BATCHES = 5;

  private BatchMeans() {
  }

  /**
   * @param mean the mean of the whole series
   * @param independent true when batches long enough to be nearly independent were found; false means
   *     the interval (from the longest batches allowed) is likely too narrow
   */
  public record Result(int n, double mean, double min, double max, double ci95Low, double ci95High,
                       int batchLength, int batches, boolean independent) {
  }

  public static Result of(double[] series) {
    int n = series.length;
    if (n == 0) {
      return new Result(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0, 0, false);
    }
    double sum = 0;
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    for (double v : series) {
      sum += v;
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
    double mean = sum / n;
    if (n < 2 * MIN_BATCHES) {
      return new Result(n, mean, min, max, Double.NaN, Double.NaN, 0, 0, false);
    }
    int length = 1;
    double[] means = batchMeans(series, length);
    boolean independent = Math.abs(lag1(means)) < MAX_LAG1_CORRELATION;
    while (!independent && n / (length * 2) >= MIN_BATCHES) {
      length *= 2;
      means = batchMeans(series, length);
      independent = Math.abs(lag1(means)) < MAX_LAG1_CORRELATION;
    }
    int k = means.length;
    double batchMean = 0;
    for (double m : means) {
      batchMean += m;
    }
    batchMean /= k;
    double variance = 0;
    for (double m : means) {
      variance += (m - batchMean) * (m - batchMean);
    }
    variance /= (k - 1);
    double half = StudentT.quantile975(k - 1) * Math.sqrt(variance / k);
    return new Result(n, mean, min, max, batchMean - half, batchMean + half, length, k, independent);
  }

  static double[] batchMeans(double[] series, int length) {
    int k = series.length / length;
    double[] means = new double[k];
    for (int b = 0; b < k; b++) {
      double s = 0;
      for (int i = b * length; i < (b + 1) * length; i++) {
        s += series[i];
      }
      means[b] = s / length;
    }
    return means;
  }

  /** Lag-1 autocorrelation; 0 for fewer than three values or a constant series. */
  static double lag1(double[] x) {
    if (x.length < 3) {
      return 0;
    }
    double mean = 0;
    for (double v : x) {
      mean += v;
    }
    mean /= x.length;
    double numerator = 0;
    double denominator = 0;
    for (int i = 0; i < x.length; i++) {
      denominator += (x[i] - mean) * (x[i] - mean);
      if (i > 0) {
        numerator += (x[i] - mean) * (x[i - 1] - mean);
      }
    }
    return denominator == 0 ? 0 : numerator / denominator;
  }
}
