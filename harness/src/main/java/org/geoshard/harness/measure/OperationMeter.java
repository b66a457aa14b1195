package org.geoshard.harness.measure;

import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Latencies and errors of one named operation, written by many threads and read once per interval.
 *
 * <p>Latencies are microseconds up to {@link #HIGHEST_MICROS} (one hour) at three significant
 * digits; longer values are clamped so that a stuck request is still counted. Writers are spread
 * over a few {@link Recorder} stripes by thread id, because one shared recorder makes all threads
 * contend on the same counters at millions of operations per second.
 *
 * <p>Failed operations are recorded apart, in a histogram of their own (as YCSB reports
 * {@code Return=ERROR} apart): a fast refusal must not pull the successes' median down, nor a
 * slow failure (a reconnect back-off) push their tail up. Failures are rare, so one recorder holds them.
 */
public final class OperationMeter {
  public static final long HIGHEST_MICROS = 3_600_000_000L;
  public static final int SIGNIFICANT_DIGITS = 3;

  private final String name;
  private final Recorder[] stripes;
  private final int stripeMask;
  private final Recorder failed = new Recorder(HIGHEST_MICROS, SIGNIFICANT_DIGITS);
  private final Histogram[] recycled;
  private Histogram recycledFailed;
  /** Failures that were a binding's NOT_FOUND (no record under the key): their likely cause is said once. */
  private final LongAdder notFound = new LongAdder();

  OperationMeter(String name, int stripeCount) {
    if (Integer.bitCount(stripeCount) != 1) {
      throw new IllegalArgumentException("stripeCount must be a power of two: " + stripeCount);
    }
    this.name = name;
    this.stripes = new Recorder[stripeCount];
    for (int i = 0; i < stripeCount; i++) {
      stripes[i] = new Recorder(HIGHEST_MICROS, SIGNIFICANT_DIGITS);
    }
    this.stripeMask = stripeCount - 1;
    this.recycled = new Histogram[stripeCount];
  }

  public String name() {
    return name;
  }

  /**
   * Records one operation.
   *
   * @param stripe any int, usually the calling thread's id; equal values share a stripe
   * @param micros latency in microseconds; negative values count as 0
   * @param ok false counts the operation as an error, its latency in the failures' histogram
   */
  public void record(int stripe, long micros, boolean ok) {
    long value = micros < 0 ? 0 : Math.min(micros, HIGHEST_MICROS);
    if (ok) {
      stripes[stripe & stripeMask].recordValue(value);
    } else {
      failed.recordValue(value);
    }
  }

  /** Counts one of the failures {@link #record recorded} as a binding's NOT_FOUND (besides recording it). */
  public void countNotFound() {
    notFound.increment();
  }

  /** The failures counted as NOT_FOUND so far. */
  public long notFound() {
    return notFound.sum();
  }

  /**
   * The latencies of successes recorded since the last call, summed over stripes, and those of
   * failures. Only one thread (the sampler) may call this.
   */
  IntervalSample sampleInterval() {
    Histogram sum = newHistogram();
    for (int i = 0; i < stripes.length; i++) {
      // A recorder only takes back histograms it handed out itself, hence one slot per stripe.
      recycled[i] = stripes[i].getIntervalHistogram(recycled[i]);
      sum.add(recycled[i]);
    }
    recycledFailed = failed.getIntervalHistogram(recycledFailed);
    Histogram failures = newHistogram();
    failures.add(recycledFailed);
    return IntervalSample.of(name, sum, failures);
  }

  public static Histogram newHistogram() {
    return new Histogram(HIGHEST_MICROS, SIGNIFICANT_DIGITS);
  }
}
