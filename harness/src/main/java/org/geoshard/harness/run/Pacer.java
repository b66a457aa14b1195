package org.geoshard.harness.run;

/**
 * The spacing between two intended operation starts of one thread, shared by all threads and
 * changeable while they run (an open-loop ramp raises the offered rate step by step).
 */
final class Pacer {
  private volatile long intervalNanos;

  /** @param opsPerSecondPerThread 0 for no pacing */
  Pacer(double opsPerSecondPerThread) {
    setRate(opsPerSecondPerThread);
  }

  void setRate(double opsPerSecondPerThread) {
    intervalNanos = opsPerSecondPerThread > 0 ? Math.max(1, Math.round(1e9 / opsPerSecondPerThread)) : 0;
  }

  long intervalNanos() {
    return intervalNanos;
  }
}
