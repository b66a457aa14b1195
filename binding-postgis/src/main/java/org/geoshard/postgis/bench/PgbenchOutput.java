package org.geoshard.postgis.bench;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads what pgbench printed with {@code -P 1}: the per-second progress lines and the totals. */
final class PgbenchOutput {
  private static final Pattern PROGRESS = Pattern.compile("(?m)^progress: ([0-9.]+) s, ([0-9.]+) tps");
  private static final Pattern PROCESSED = Pattern.compile("(?m)^number of transactions actually processed: (\\d+)");
  private static final Pattern FAILED = Pattern.compile("(?m)^number of failed transactions: (\\d+)");

  /**
   * @param transactions every transaction pgbench completed, its warm-up included
   * @param throughput transactions per second over the progress seconds after the warm-up
   * @param failed transactions that failed
   */
  record Outcome(long transactions, double throughput, long failed) {
  }

  private PgbenchOutput() {
  }

  /** The totals, and the mean rate of the progress lines of seconds {@code warmup + 1} and later. */
  static Outcome parse(String output, int warmupSeconds) {
    Matcher processed = PROCESSED.matcher(output);
    if (!processed.find()) {
      throw new IllegalArgumentException("pgbench printed no 'number of transactions actually processed' line.");
    }
    double sum = 0;
    int seconds = 0;
    Matcher progress = PROGRESS.matcher(output);
    while (progress.find()) {
      if (Double.parseDouble(progress.group(1)) > warmupSeconds + 0.5) {
        sum += Double.parseDouble(progress.group(2));
        seconds++;
      }
    }
    if (seconds == 0) {
      throw new IllegalArgumentException("pgbench printed no progress line after the " + warmupSeconds + " s warm-up.");
    }
    Matcher failed = FAILED.matcher(output);
    return new Outcome(Long.parseLong(processed.group(1)), sum / seconds, failed.find() ? Long.parseLong(failed.group(1)) : 0);
  }
}
