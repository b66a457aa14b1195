package org.geoshard.harness.api;

import java.util.concurrent.locks.LockSupport;

/**
 * A binding's wait before it tries again (a reconnect back-off). Waiting is not serving: the harness
 * leaves the time a thread spent here out of the latency of the operation it waited in, whether that
 * operation then succeeds or fails. A binding waits with {@link #park(long)} instead of sleeping.
 */
public final class RetryWait {
  /** Nanoseconds this thread has waited so far, ever growing (a measured call takes the difference). */
  private static final ThreadLocal<long[]> WAITED = ThreadLocal.withInitial(() -> new long[1]);

  private RetryWait() {
  }

  /** Waits {@code nanos} (less when interrupted; the interrupt flag is kept), counted as waiting. */
  public static void park(long nanos) {
    long start = System.nanoTime();
    long left = nanos;
    while (left > 0 && !Thread.currentThread().isInterrupted()) {
      LockSupport.parkNanos(left);  // may return early for no reason: wait out the rest
      left = nanos - (System.nanoTime() - start);
    }
    WAITED.get()[0] += System.nanoTime() - start;
  }

  /** Nanoseconds the calling thread has waited in {@link #park(long)} since it started. */
  public static long waitedNanos() {
    return WAITED.get()[0];
  }
}
