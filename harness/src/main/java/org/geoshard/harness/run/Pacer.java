package org.geoshard.harness.run;

/**
 * The spacing between two intended operation starts of one thread, shared by all threads and
 * changeable while they run (an open-loop ramp raises the offered rate step by step).
 */
final class Pacer {
  private final boolean zeroPauses;
  private volatile long intervalNanos;
  private volatile boolean paused;

  /**
   * @param opsPerSecond the rate offered by all the threads that share this pacer together
   * @param threads how many threads share it (each offers its part)
   * @param zeroPauses true when a rate of 0 means "no operations" (a thread group); false when it
   *     means "no pacing, as fast as possible" (the main threads without a target)
   */
  Pacer(double opsPerSecond, int threads, boolean zeroPauses) {
    this.zeroPauses = zeroPauses;
    offer(opsPerSecond, threads);
  }

  /** Offers {@code opsPerSecond} over {@code threads} threads: the one place a rate is split per thread. */
  void offer(double opsPerSecond, int threads) {
    double perThread = opsPerSecond / threads;
    intervalNanos = perThread > 0 ? Math.max(1, Math.round(1e9 / perThread)) : 0;
    paused = zeroPauses && intervalNanos == 0;
  }

  long intervalNanos() {
    return intervalNanos;
  }

  boolean paused() {
    return paused;
  }
}
