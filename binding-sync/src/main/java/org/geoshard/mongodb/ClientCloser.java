package org.geoshard.mongodb;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes driver clients without waiting on a server that stopped answering. A client's {@code close()}
 * first ends the server sessions it pooled ({@code endSessions}, sent on a pooled connection with no
 * deadline of ours) and only then closes its sockets: against a stalled server it waits for a reply that
 * never comes, and the phase's end (Ctrl-C included) would wait with it. Each close runs on a daemon
 * thread of its own; the caller waits at most {@link #WAIT} for all of them together, then goes on: a
 * close still waiting finishes (or dies with the process) in the background. A healthy server answers
 * {@code endSessions} in milliseconds, so nothing is left behind then.
 */
public final class ClientCloser {
  private static final Logger LOG = LoggerFactory.getLogger(ClientCloser.class);
  /** How long the phase's end waits for its clients to close: well within the second Ctrl-C is given. */
  public static final Duration WAIT = Duration.ofMillis(100);
  private static final AtomicInteger THREADS = new AtomicInteger();

  private ClientCloser() {
  }

  /** One client to close: what it is (for the log line) and how. */
  public record Closing(String what, Runnable close) {
  }

  /**
   * Closes them all at once, each on its own daemon thread, waiting at most {@code wait} for all.
   *
   * @return how many were still closing when the wait ended (they go on in the background)
   */
  public static int closeAll(List<Closing> closings, Duration wait) {
    if (closings.isEmpty()) {
      return 0;
    }
    CountDownLatch done = new CountDownLatch(closings.size());
    List<String> pending = java.util.Collections.synchronizedList(new ArrayList<>());
    for (Closing c : closings) {
      pending.add(c.what());
      Thread t = new Thread(() -> {
        try {
          c.close().run();
        } catch (RuntimeException e) {
          LOG.debug("Closing the MongoDB client of {} failed: {}", c.what(), e.toString());
        } finally {
          pending.remove(c.what());
          done.countDown();
        }
      }, "geoshard-client-closer-" + THREADS.incrementAndGet());
      t.setDaemon(true);
      t.start();
    }
    try {
      if (done.await(wait.toMillis(), TimeUnit.MILLISECONDS)) {
        return 0;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    List<String> left;
    synchronized (pending) {
      left = new ArrayList<>(pending);
    }
    if (!left.isEmpty()) {
      LOG.info("The MongoDB client of {} did not close within {} ms (the server does not answer its endSessions);"
          + " left to close in the background.", String.join(", ", left), wait.toMillis());
    }
    return left.size();
  }

  /** As {@link #closeAll}, with {@link #WAIT}, for one client. */
  public static boolean close(String what, Runnable close) {
    return closeAll(List.of(new Closing(what, close)), WAIT) == 0;
  }
}
