package org.geoshard.harness.run;

import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs exceptions thrown by the binding during operations without flooding the log: the first few
 * in full, then one line every {@link #EVERY}. The counts themselves are in the measurements.
 */
final class ErrorReporter {
  private static final Logger LOG = LoggerFactory.getLogger(ErrorReporter.class);
  static final int IN_FULL = 5;
  static final long EVERY = 10_000;

  private final AtomicLong seen = new AtomicLong();

  void operationFailed(String operation, RuntimeException e) {
    long n = seen.incrementAndGet();
    if (n <= IN_FULL) {
      LOG.warn("{} failed with an exception (counted as an error): {}", operation, e.toString(), e);
    } else if (n % EVERY == 0) {
      LOG.warn("{} operations have failed with exceptions so far; the latest, in {}: {}", n, operation, e.toString());
    }
  }

  long count() {
    return seen.get();
  }
}
