package org.geoshard.harness.api;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Says, while a blocking call waits on a server (a driver's connect that cannot be polled), after
 * {@link #FIRST} what it waits for, where and for how long at most ("Waiting for an answer from
 * db1:5432 (up to 60 s, postgis.connectTimeout)."), then every {@link #EVERY} how long so far ("No
 * answer from db1:5432 yet: 20 s of 60 s, postgis.connectTimeout."). Nothing is said when the call
 * returns sooner. Close it when the call returns.
 */
public final class WaitingNotice implements AutoCloseable {
  /** The first line: a call that has not returned in a second is said to wait, not after 10 s of silence. */
  public static final Duration FIRST = Duration.ofSeconds(1);
  public static final Duration EVERY = Duration.ofSeconds(10);

  private final ScheduledExecutorService timer;

  private WaitingNotice(ScheduledExecutorService timer) {
    this.timer = timer;
  }

  /**
   * Starts saying so every {@link #EVERY}.
   *
   * @param where the address waited on (no password)
   * @param limit how long the call waits at most
   * @param property the property that sets {@code limit}
   * @param out where the lines go (a logger's info)
   */
  public static WaitingNotice start(String where, Duration limit, String property, Consumer<String> out) {
    return start(where, limit, property, out, FIRST, EVERY);
  }

  static WaitingNotice start(String where, Duration limit, String property, Consumer<String> out, Duration first,
      Duration every) {
    ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "waiting-notice");
      t.setDaemon(true);
      return t;
    });
    long started = System.nanoTime();
    timer.schedule(() -> out.accept("Waiting for an answer from " + where + " (up to " + limit.toSeconds() + " s, "
        + property + ")."), first.toNanos(), TimeUnit.NANOSECONDS);
    timer.scheduleAtFixedRate(() -> out.accept("No answer from " + where + " yet: "
        + seconds(System.nanoTime() - started) + " s of " + limit.toSeconds() + " s, " + property + "."),
        every.toNanos(), every.toNanos(), TimeUnit.NANOSECONDS);
    return new WaitingNotice(timer);
  }

  private static long seconds(long nanos) {
    return Math.round(nanos / 1e9);
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
