package org.geoshard.harness.api;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * Logs failed operations without flooding the log: the first {@value #FIRST} in full, then at most
 * one line per {@link #EVERY} with the count since the last line and the latest reason. A database
 * that is down makes millions of operations fail; their counts are in the run folder, and the log
 * needs only to say that it goes on. Reasons pass through {@link Secrets#maskText}.
 *
 * <p>Thread-safe; one per binding class (or per harness), shared by every client thread. The summary
 * line is written by the next failure after the period, so a quiet period writes nothing.
 */
public final class FailureLog {
  public static final int FIRST = 5;
  public static final Duration EVERY = Duration.ofSeconds(10);

  private final Logger log;
  private final int first;
  private final long everyNanos;
  private final LongSupplier nanoClock;
  private long total;
  private long sinceLine;
  private long lastLineNanos;

  public FailureLog(Logger log) {
    this(log, FIRST, EVERY, System::nanoTime);
  }

  /** With its own numbers and clock (tests). */
  public FailureLog(Logger log, int first, Duration every, LongSupplier nanoClock) {
    this.log = log;
    this.first = first;
    this.everyNanos = every.toNanos();
    this.nanoClock = nanoClock;
  }

  /**
   * One failure.
   *
   * @param what what failed, e.g. "COPY of 1000 restaurants into restaurants"
   * @param reason why, in the database's words (masked here)
   * @param detail logged with its stack trace for the first failures only; null for none
   */
  public void failed(String what, String reason, Throwable detail) {
    long now = nanoClock.getAsLong();
    long count;
    long since;
    long seconds;
    synchronized (this) {
      count = ++total;
      if (count <= first) {
        lastLineNanos = now;
        since = 0;
        seconds = 0;
      } else {
        sinceLine++;
        if (count != first + 1 && now - lastLineNanos < everyNanos) {
          return;  // counted; the next line will say how many
        }
        since = sinceLine;
        seconds = TimeUnit.NANOSECONDS.toSeconds(now - lastLineNanos);
        sinceLine = 0;
        lastLineNanos = now;
      }
    }
    // Masking costs a few regular expressions: only for the lines actually written.
    String masked = Secrets.maskText(reason == null ? "" : reason.strip().replaceAll("\\s*\\n\\s*", "; "));
    if (count <= first) {
      if (detail != null) {
        log.warn("{} failed: {}", what, masked, detail);
      } else {
        log.warn("{} failed: {}", what, masked);
      }
    } else if (count == first + 1) {
      log.warn("{} failed: {} (further failures are counted, one line every {} s)", what, masked,
          TimeUnit.NANOSECONDS.toSeconds(everyNanos));
    } else {
      log.warn("{} more failures in the last {} s ({} in all); the latest: {} failed: {}", since, seconds, count, what,
          masked);
    }
  }

  /** Failures seen so far. */
  public synchronized long count() {
    return total;
  }
}
