package org.geoshard.lastlocation;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.geoshard.harness.api.Seeds;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.config.PropertyReader;
import org.geoshard.lastlocation.contract.HistorySplit;

/** The last-location workload's properties ({@code ll.*}), read and checked at once. Immutable. */
public record LastLocationSettings(long users, int cells, double moveProbability, double outOfOrder, long maxDelayMs,
                                   int eventsPerUserAtLoad, long clockStartMs, double insertRate, int writers,
                                   List<Double> sweepRates, Duration sweepInterval, double readLkl, double readRange,
                                   double readNear, long rangeMs, double nearRadiusMeters, int nearLimit,
                                   int historyBatchSize, HistorySplit historySplit, WriteMode writeMode, long seed) {

  /** What a location event writes ({@code ll.write.mode}). */
  public enum WriteMode {
    /** Appended to History and upserted into Last-Known-Location if newer (the default). */
    UPSERT,
    /**
     * Appended to History only, no Last-Known-Location: the pilot's insert-only tables. Readers can then
     * only ask History ({@code ll.read.proportion.range=1}).
     */
    INSERTONLY
  }

  public static final String USERS = "ll.users";
  public static final String CELLS = "ll.cells";
  public static final String MOVE = "ll.move";
  public static final String OUT_OF_ORDER = "ll.outoforder";
  public static final String MAX_DELAY_MS = "ll.outoforder.maxdelay.ms";
  public static final String EVENTS_PER_USER = "ll.history.peruser";
  public static final String CLOCK_START = "ll.clock.start";
  public static final String INSERT_RATE = "ll.insert.rate";
  public static final String WRITERS = "ll.writers";
  public static final String SWEEP_RATES = "ll.sweep.rates";
  public static final String SWEEP_INTERVAL = "ll.sweep.interval";
  public static final String READ_LKL = "ll.read.proportion.lkl";
  public static final String READ_RANGE = "ll.read.proportion.range";
  public static final String READ_NEAR = "ll.read.proportion.near";
  public static final String RANGE_HOURS = "ll.range.hours";
  public static final String NEAR_RADIUS = "ll.near.radius";
  public static final String NEAR_LIMIT = "ll.near.limit";
  public static final String HISTORY_BATCH_SIZE = "ll.history.batchsize";
  public static final String HISTORY_SPLIT = "ll.history.split";
  public static final String WRITE_MODE = "ll.write.mode";

  /** True when the readers ask who is near a point: only then does Last-Known-Location need a spatial index. */
  public boolean nearQueries() {
    return readNear > 0;
  }

  /** True when events are upserted into Last-Known-Location (not the insert-only mode). */
  public boolean keepsLastKnownLocation() {
    return writeMode == WriteMode.UPSERT;
  }

  public static LastLocationSettings fromProperties(Properties properties) throws ConfigException {
    PropertyReader in = new PropertyReader(properties);
    long users = in.longAtLeast(USERS, 100_000, 1);
    int cells = in.intInRange(CELLS, 10_000, 1, 100_000_000);
    double move = in.doubleInRange(MOVE, 0.3, 0, 1);
    double outOfOrder = in.doubleInRange(OUT_OF_ORDER, 0.01, 0, 1);
    long maxDelay = in.longAtLeast(MAX_DELAY_MS, 600_000, 1);
    int perUser = in.intInRange(EVENTS_PER_USER, 1, 1, 10_000);
    long clockStart = 0;
    String start = in.string(CLOCK_START, "2026-01-01T00:00:00Z");
    try {
      clockStart = Instant.parse(start).toEpochMilli();
    } catch (DateTimeParseException e) {
      in.problem("Property '" + CLOCK_START + "' must be an ISO-8601 instant such as 2026-01-01T00:00:00Z, but is '"
          + start + "'.");
    }
    double rate = in.doubleInRange(INSERT_RATE, 1000, 0, 1e9);
    int writers = in.intInRange(WRITERS, 4, 1, 10_000);
    List<Double> sweep = new ArrayList<>();
    String rates = in.raw(SWEEP_RATES);
    if (rates != null) {
      for (String part : rates.split(",")) {
        try {
          double value = Double.parseDouble(part.trim());
          if (!(value >= 0)) {
            throw new NumberFormatException();
          }
          sweep.add(value);
        } catch (NumberFormatException e) {
          in.problem("Property '" + SWEEP_RATES + "' must be a comma-separated list of rates (events/s, 0 or more),"
              + " but has '" + part.trim() + "'.");
        }
      }
    }
    Duration sweepInterval = in.seconds(SWEEP_INTERVAL, Duration.ofSeconds(30), 1);
    double lkl = in.doubleInRange(READ_LKL, 0.9, 0, 1);
    double range = in.doubleInRange(READ_RANGE, 0.1, 0, 1);
    double near = in.doubleInRange(READ_NEAR, 0, 0, 1);
    long rangeHours = in.longAtLeast(RANGE_HOURS, 24, 1);
    double radius = in.doubleInRange(NEAR_RADIUS, 2000, 1, 20_000_000);
    int limit = in.intInRange(NEAR_LIMIT, 100, 1, 100_000);
    int batch = in.intInRange(HISTORY_BATCH_SIZE, 100, 1, 1_000_000);
    HistorySplit split = in.choice(HISTORY_SPLIT, HistorySplit.NONE, HistorySplit.class);
    WriteMode writeMode = in.choice(WRITE_MODE, WriteMode.UPSERT, WriteMode.class);
    if (writeMode == WriteMode.INSERTONLY && (lkl > 0 || near > 0)) {
      in.problem("Property '" + WRITE_MODE + "' is insertonly, which keeps no Last-Known-Location, but "
          + READ_LKL + " (" + lkl + ") and " + READ_NEAR + " (" + near + ") ask it: set " + READ_RANGE
          + "=1 and both to 0 (or -P workloads/lastlocation-insertonly).");
    }
    if (Math.abs(lkl + range + near - 1) > 1e-9) {
      in.problem("Properties " + READ_LKL + " (" + lkl + "), " + READ_RANGE + " (" + range + ") and " + READ_NEAR
          + " (" + near + ") must add up to 1.");
    }
    if (users < writers) {
      in.problem("Property '" + USERS + "' (" + users + ") must be at least '" + WRITERS + "' (" + writers
          + "): every writer owns its own users.");
    }
    in.throwIfProblems();
    return new LastLocationSettings(users, cells, move, outOfOrder, maxDelay, perUser, clockStart, rate, writers,
        List.copyOf(sweep), sweepInterval, lkl, range, near, rangeHours * 3_600_000, radius, limit, batch, split,
        writeMode, Seeds.runSeed(properties));
  }
}
