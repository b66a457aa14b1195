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
   * @param opsPerSecondPerThread the rate of each thread
   * @param zeroPauses true when a rate of 0 means "no operations" (a thread group); false when it
   *     means "no pacing, as fast as possible" (the main threads without a target)
   */
  Pacer(double opsPerSecondPerThread, boolean zeroPauses) {
    this.zeroPauses = zeroPauses;
    setRate(opsPerSecondPerThread);
  }

  void setRate(double opsPerSecondPerThread) {
    intervalNanos = opsPerSecondPerThread > 0 ? Math.max(1, Math.round(1e9 / opsPerSecondPerThread)) : 0;
    paused = zeroPauses && intervalNanos == 0;
  }

  long intervalNanos() {
    return intervalNanos;
  }

  boolean paused() {
    return paused;
  }
}
