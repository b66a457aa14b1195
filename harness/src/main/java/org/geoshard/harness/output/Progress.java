package org.geoshard.harness.output;

import java.time.Duration;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * How far a phase is, for its status lines: the share done and the time left of a phase of known
 * size (operations, or a time limit), or the step a ramp or sweep is in. Pure: given what was done
 * and when, it says the same every time, so it is tested without a clock.
 */
@FunctionalInterface
public interface Progress {
  /**
   * @param operations operations done since the start
   * @param elapsedMs milliseconds since the start
   * @return a clause for the status line, or null when there is nothing to say
   */
  String describe(long operations, long elapsedMs);

  static Progress none() {
    return (operations, elapsedMs) -> null;
  }

  /**
   * A phase of {@code planned} operations (0: unknown), perhaps also limited to {@code limit} (zero:
   * none): the share done, and the time left at the average rate so far (or the time limit, if sooner).
   */
  static Progress of(long planned, Duration limit) {
    return of(planned, limit, null);
  }

  /**
   * As {@link #of(long, Duration)}, naming what is counted ({@code records} of a load: a workload may
   * measure several operations per record, as the last-location load's History and LKL writes).
   */
  static Progress of(long planned, Duration limit, String unit) {
    String counted = unit == null ? "" : " " + unit;
    String perSecond = unit == null ? "ops/sec" : unit + "/sec";
    long limitMs = limit.toMillis();
    if (planned <= 0 && limitMs <= 0) {
      return none();
    }
    return (operations, elapsedMs) -> {
      long byTime = limitMs > 0 ? Math.max(0, limitMs - elapsedMs) : Long.MAX_VALUE;
      if (planned <= 0) {
        return percent(elapsedMs / (double) limitMs) + " of " + duration(limitMs) + " done, " + duration(byTime) + " left";
      }
      double rate = elapsedMs > 0 ? operations * 1000.0 / elapsedMs : 0;
      long byOperations = rate > 0 ? (long) Math.ceil(Math.max(0, planned - operations) / rate * 1000) : Long.MAX_VALUE;
      long left = Math.min(byTime, byOperations);
      return percent(operations / (double) planned) + " of " + Formats.grouped(planned) + counted + " done, "
          + (left == Long.MAX_VALUE ? "time left unknown" : duration(left) + " left at "
          + Formats.decimal(rate, 1) + " " + perSecond + " on average");
    };
  }

  /** This progress counted by {@code done} (what the plan counts) instead of the measured operations. */
  default Progress counting(LongSupplier done) {
    return (operations, elapsedMs) -> describe(done.getAsLong(), elapsedMs);
  }

  /** The step a ramp or sweep is in, as its controller says ({@code step 3 of 5, 8 threads}). */
  static Progress ofSteps(Supplier<String> step) {
    return (operations, elapsedMs) -> step.get();
  }

  private static String percent(double share) {
    return Formats.decimal(Math.min(100, share * 100), 1) + "%";
  }

  /** 45 s, 3 min 5 s, 2 h 10 min. */
  static String duration(long ms) {
    long seconds = (ms + 999) / 1000;
    if (seconds < 60) {
      return seconds + " s";
    }
    if (seconds < 3600) {
      return seconds / 60 + " min " + seconds % 60 + " s";
    }
    return seconds / 3600 + " h " + seconds % 3600 / 60 + " min";
  }
}
