package org.geoshard.harness.config;

import java.util.Properties;

/**
 * YCSB's counts that a workload reads to find its share of a phase: {@code threadcount},
 * {@code recordcount}, {@code insertstart} and {@code insertcount} (the harness's {@code RunSettings} reads and checks the
 * same names for the phase). One reader for them, so that a workload does not read them raw.
 *
 * @param threads the main client threads ({@code threadcount}, 1 when unset)
 * @param recordCount the records of the data set ({@code recordcount}), or -1 when unset
 * @param insertStart the first record a load inserts ({@code insertstart}, 0 when unset)
 * @param insertCount how many records a load inserts ({@code insertcount}), or -1 when unset
 */
public record YcsbCounts(int threads, long recordCount, long insertStart, long insertCount) {
  public static final String THREAD_COUNT = "threadcount";
  public static final String RECORD_COUNT = "recordcount";
  public static final String INSERT_START = "insertstart";
  public static final String INSERT_COUNT = "insertcount";
  /** As the harness's {@code RunSettings.MAX_THREADS}. */
  public static final int MAX_THREADS = 100_000;

  /** Reads the four counts, naming every malformed one. */
  public static YcsbCounts fromProperties(Properties properties) throws ConfigException {
    PropertyReader in = new PropertyReader(properties);
    int threads = in.intInRange(THREAD_COUNT, 1, 1, MAX_THREADS);
    long records = in.longAtLeast(RECORD_COUNT, -1, 0);
    long start = in.longAtLeast(INSERT_START, 0, 0);
    long count = in.longAtLeast(INSERT_COUNT, -1, 0);
    in.throwIfProblems();
    return new YcsbCounts(threads, records, start, count);
  }

  /**
   * Why YCSB 0.17.0's {@code CoreWorkload} could not choose a key with these counts, or null when it
   * can. It reads {@code recordcount} 0 or unset as {@link Integer#MAX_VALUE} and an unset
   * {@code insertcount} as {@code recordcount - insertstart}, and draws keys from {@code insertstart} to
   * {@code insertstart + insertcount - 1}: with no key in that range a run's key chooser never returns
   * (no operation ends), and a range beyond {@code recordcount} makes it exit the JVM.
   */
  public String coreWorkloadKeyRangeProblem() {
    long records = recordCount > 0 ? recordCount : Integer.MAX_VALUE;
    long count = insertCount >= 0 ? insertCount : records - insertStart;
    String recordsSaid = recordCount > 0 ? "recordcount (" + recordCount + ")"
        : "recordcount (unset: " + Integer.MAX_VALUE + " for YCSB's CoreWorkload)";
    if (insertCount < 0 && count <= 0) {
      return "Property insertstart (" + insertStart + ") is not below " + recordsSaid + ": insertcount, unset, is"
          + " recordcount - insertstart = " + count + ", so YCSB's CoreWorkload has no key to choose (its keys run from"
          + " insertstart to insertstart + insertcount - 1); set insertstart below recordcount.";
    }
    if (count <= 0) {
      return "Property insertcount is 0: YCSB's CoreWorkload has no key to choose (its keys run from insertstart ("
          + insertStart + ") to insertstart + insertcount - 1); set insertcount to 1 or more, or leave it unset.";
    }
    if (insertStart + count > records) {
      return "Properties insertstart (" + insertStart + ") + insertcount (" + count + ") = " + (insertStart + count)
          + " exceed " + recordsSaid + ": YCSB's CoreWorkload keys run from 0 to recordcount - 1.";
    }
    return null;
  }

  /** {@code insertcount}, or when unset every record from {@code insertstart} on of {@code records}. */
  public long insertCountOf(long records) {
    return insertCount >= 0 ? insertCount : Math.max(0, records - insertStart);
  }
}
