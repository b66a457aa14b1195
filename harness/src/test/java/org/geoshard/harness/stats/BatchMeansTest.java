package org.geoshard.harness.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BatchMeansTest {
  /** An AR(1) series x(t) = mean + phi (x(t-1) - mean) + noise: strongly autocorrelated for phi near 1. */
  private static double[] ar1(long seed, int n, double mean, double phi, double sigma) {
    SplittableRandom random = new SplittableRandom(seed);
    double[] x = new double[n];
    double previous = mean;
    for (int i = 0; i < n; i++) {
      previous = mean + phi * (previous - mean) + sigma * gaussian(random);
      x[i] = previous;
    }
    return x;
  }

  private static double gaussian(SplittableRandom random) {
    return Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
  }

  private static double naiveHalfWidth(double[] x) {
    double mean = 0;
    for (double v : x) {
      mean += v;
    }
    mean /= x.length;
    double var = 0;
    for (double v : x) {
      var += (v - mean) * (v - mean);
    }
    return 1.96 * Math.sqrt(var / (x.length - 1) / x.length);
  }

  @Test
  void coversTheTrueMeanOfAnAutocorrelatedSeriesAboutNinetyFivePercentOfTheTime() {
    int replications = 400;
    int covered = 0;
    int naiveCovered = 0;
    for (int r = 0; r < replications; r++) {
      double[] x = ar1(1000 + r, 1200, 5000, 0.9, 100);
      BatchMeans.Result result = BatchMeans.of(x);
      if (result.ci95Low() <= 5000 && 5000 <= result.ci95High()) {
        covered++;
      }
      if (Math.abs(result.mean() - 5000) <= naiveHalfWidth(x)) {
        naiveCovered++;
      }
      assertThat(result.batchLength()).isGreaterThan(1);
    }
    double coverage = covered / (double) replications;
    double naiveCoverage = naiveCovered / (double) replications;
    // Binomial(400, 0.95) has sd 1.1%: 0.90 is far below chance; batch means is slightly liberal.
    assertThat(coverage).isBetween(0.88, 0.99);
    // Treating the seconds as independent (the study's mistake) covers far less often.
    assertThat(naiveCoverage).isLessThan(0.6);
  }

  @Test
  void independentSecondsNeedNoBatching() {
    double[] x = ar1(7, 300, 100, 0, 10);
    BatchMeans.Result result = BatchMeans.of(x);
    assertThat(result.batchLength()).isEqualTo(1);
    assertThat(result.batches()).isEqualTo(300);
    assertThat(result.independent()).isTrue();
    assertThat(result.ci95High() - result.ci95Low()).isCloseTo(2 * naiveHalfWidth(x), org.assertj.core.api.Assertions.within(0.05));
  }

  @Test
  void shortSeriesHaveNoInterval() {
    BatchMeans.Result result = BatchMeans.of(new double[] {1, 2, 3});
    assertThat(result.mean()).isEqualTo(2);
    assertThat(result.min()).isEqualTo(1);
    assertThat(result.max()).isEqualTo(3);
    assertThat(result.ci95Low()).isNaN();
    assertThat(BatchMeans.of(new double[0]).n()).isZero();
  }

  @Test
  void studentQuantilesMatchTables() {
    assertThat(StudentT.quantile975(1)).isEqualTo(12.706);
    assertThat(StudentT.quantile975(10)).isEqualTo(2.228);
    assertThat(StudentT.quantile975(60)).isCloseTo(2.000, org.assertj.core.api.Assertions.within(0.002));
    assertThat(StudentT.quantile975(120)).isCloseTo(1.980, org.assertj.core.api.Assertions.within(0.002));
  }
}
