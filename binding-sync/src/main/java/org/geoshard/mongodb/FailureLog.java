package org.geoshard.mongodb;

import org.slf4j.Logger;

/**
 * The MongoDB bindings' failed operations, logged through the harness's rate-limited
 * {@link org.geoshard.harness.api.FailureLog} (the first few in full, then a count per interval),
 * each reason in the server's own words ({@link Failures#brief}). One per binding class, shared by
 * its instances (every client thread).
 */
public final class FailureLog {
  private final org.geoshard.harness.api.FailureLog log;

  public FailureLog(Logger log) {
    this.log = new org.geoshard.harness.api.FailureLog(log);
  }

  public void failed(String what, Exception e) {
    log.failed(what, e == null ? "" : Failures.brief(e), null);
  }
}
