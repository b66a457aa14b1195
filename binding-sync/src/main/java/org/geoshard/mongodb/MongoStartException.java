package org.geoshard.mongodb;

import org.geoshard.harness.api.Secrets;
import site.ycsb.DBException;

/**
 * The binding cannot start or prepare, for a reason its message says in full: no server reachable
 * (and where it tried), authentication failed, the collection not sharded or not indexed as the
 * properties say. It carries no stack trace, which would only bury that sentence in the log; the
 * driver's exception behind it is logged at DEBUG ({@code GEOSHARD_LOG_LEVEL=DEBUG}). The message is
 * masked ({@link Secrets#maskText}).
 */
public final class MongoStartException extends DBException {
  private static final long serialVersionUID = 1L;

  public MongoStartException(String message) {
    super(Secrets.maskText(message));
  }

  @Override
  public synchronized Throwable fillInStackTrace() {
    return this;
  }
}
