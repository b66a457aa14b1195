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
 */
public final class OperationMeter {
  public static final long HIGHEST_MICROS = 3_600_000_000L;
  public static final int SIGNIFICANT_DIGITS = 3;

  private final String name;
  private final Recorder[] stripes;
  private final int stripeMask;
  private final LongAdder errors = new LongAdder();
  private final Histogram[] recycled;

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
   * @param ok false counts the operation as an error (its latency is still recorded)
   */
  public void record(int stripe, long micros, boolean ok) {
    long value = micros < 0 ? 0 : Math.min(micros, HIGHEST_MICROS);
    stripes[stripe & stripeMask].recordValue(value);
    if (!ok) {
      errors.increment();
    }
  }

  /**
   * The latencies recorded since the last call, summed over stripes, and the errors since then.
   * Only one thread (the sampler) may call this.
   */
  IntervalSample sampleInterval() {
    Histogram sum = newHistogram();
    for (int i = 0; i < stripes.length; i++) {
      // A recorder only takes back histograms it handed out itself, hence one slot per stripe.
      recycled[i] = stripes[i].getIntervalHistogram(recycled[i]);
      sum.add(recycled[i]);
    }
    return new IntervalSample(name, sum, errors.sumThenReset());
  }

  public static Histogram newHistogram() {
    return new Histogram(HIGHEST_MICROS, SIGNIFICANT_DIGITS);
  }
}
