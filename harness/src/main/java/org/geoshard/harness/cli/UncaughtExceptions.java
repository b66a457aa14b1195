package org.geoshard.harness.cli;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a thread that is not the harness's dies of, said in one line instead of the JVM's raw stack
 * trace on standard error. Seen: the reactive driver's channel thread ({@code Thread-7}) throwing a
 * NullPointerException from {@code org.bson.ByteBufNIO.hasRemaining} when a write completes on a
 * connection its client had already closed and released (15 frames of the driver, nothing measured
 * lost: the harness's client threads catch their own). The full trace goes to the debug log.
 * Installed by {@link Main} for the whole process; library code never installs it.
 */
final class UncaughtExceptions implements Thread.UncaughtExceptionHandler {
  private static final Logger LOG = LoggerFactory.getLogger(UncaughtExceptions.class);
  private final Logger log;

  UncaughtExceptions(Logger log) {
    this.log = log;
  }

  /** Makes it the handler of every thread of the process that has none of its own. */
  static void install() {
    Thread.setDefaultUncaughtExceptionHandler(new UncaughtExceptions(LOG));
  }

  @Override
  public void uncaughtException(Thread thread, Throwable e) {
    StackTraceElement[] frames = e.getStackTrace();
    String where = frames.length == 0 ? "" : " at " + frames[0];
    log.warn("Thread '{}' (not a client thread) ended on {}{}; the full trace is logged at debug.", thread.getName(),
        e, where);
    log.debug("The trace of what ended thread '{}'", thread.getName(), e);
  }
}
