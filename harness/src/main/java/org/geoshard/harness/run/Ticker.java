package org.geoshard.harness.run;

import java.util.concurrent.locks.LockSupport;

/**
 * The clock and the wait of the client threads' schedule. The system's in a run; a test injects its
 * own to place a stop exactly inside a thread's wait for its next intended start.
 */
interface Ticker {
  Ticker SYSTEM = new Ticker() {
    @Override
    public long nanoTime() {
      return System.nanoTime();
    }

    @Override
    public void park(long nanos) {
      LockSupport.parkNanos(nanos);
    }
  };

  /** A monotonic time in nanoseconds, as {@link System#nanoTime()}. */
  long nanoTime();

  /** Waits about {@code nanos} (less when woken), as {@link LockSupport#parkNanos(long)}. */
  void park(long nanos);
}
