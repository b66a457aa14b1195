package org.geoshard.harness.measure;

import java.util.List;

/**
 * What was measured over one sampling interval, for every operation that ran in it.
 *
 * @param index 1 for the interval that starts when the run starts, then 2, 3, ...
 * @param startEpochMs wall-clock start of the interval
 * @param endEpochMs wall-clock end of the interval (the last one of a run may be short)
 * @param threads client threads running at the end of the interval
 * @param samples one entry per operation that recorded something, in order of first appearance
 */
public record Interval(long index, long startEpochMs, long endEpochMs, int threads, List<IntervalSample> samples) {
  public Interval {
    samples = List.copyOf(samples);
  }

  public long durationMs() {
    return Math.max(1, endEpochMs - startEpochMs);
  }

  public long operations() {
    return samples.stream().mapToLong(IntervalSample::count).sum();
  }

  public long errors() {
    return samples.stream().mapToLong(IntervalSample::errors).sum();
  }

  /** Operations that succeeded, all operations but {@link Totals#CLEANUP} (the binding's final flush). */
  public long succeeded() {
    return samples.stream().filter(s -> !Totals.CLEANUP.equals(s.operation())).mapToLong(IntervalSample::ok).sum();
  }
}
