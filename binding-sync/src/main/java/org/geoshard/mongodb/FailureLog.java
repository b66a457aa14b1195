package org.geoshard.mongodb;

import java.util.concurrent.atomic.AtomicLong;
import org.geoshard.harness.config.Secrets;
import org.slf4j.Logger;

/**
 * Logs the operations a binding saw fail without flooding the log: the first {@value #FIRST} in full,
 * then one line every {@value #EVERY}; the counts themselves are in the run folder. One per binding
 * class, shared by its instances (every client thread).
 */
public final class FailureLog {
  static final int FIRST = 5;
  static final long EVERY = 10_000;

  private final Logger log;
  private final AtomicLong failures = new AtomicLong();

  public FailureLog(Logger log) {
    this.log = log;
  }

  public void failed(String what, Exception e) {
    long n = failures.incrementAndGet();
    String reason = e == null ? "" : ": " + Secrets.maskText(Failures.brief(e));
    if (n <= FIRST) {
      log.warn("{} failed{}", what, reason);
    } else if (n % EVERY == 0) {
      log.warn("{} operations of the binding have failed so far; the latest: {} failed{}", n, what, reason);
    }
  }
}
