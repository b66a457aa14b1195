package org.geoshard.harness.run;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/** A clock that moves only when told to (a wait moves it by what was asked, after a real 0.1 ms so nothing spins). */
final class ManualTicker implements Ticker {
  private final AtomicLong now;

  ManualTicker(long startNanos) {
    this.now = new AtomicLong(startNanos);
  }

  @Override
  public long nanoTime() {
    return now.get();
  }

  @Override
  public void park(long nanos) {
    LockSupport.parkNanos(100_000L);
    now.addAndGet(nanos);
  }

  void advanceMillis(long millis) {
    now.addAndGet(millis * 1_000_000L);
  }
}
