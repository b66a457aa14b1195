package org.geoshard.harness.measure;

/**
 * Receives every interval in order, on the sampler's thread. Listeners must be quick: they run
 * between two samples. {@link #close()} is called once after the last interval.
 */
public interface IntervalListener extends AutoCloseable {
  void onInterval(Interval interval) throws Exception;

  @Override
  default void close() throws Exception {
  }
}
