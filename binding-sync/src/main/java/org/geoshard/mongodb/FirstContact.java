package org.geoshard.mongodb;

import com.mongodb.client.MongoClient;
import com.mongodb.connection.ClusterDescription;
import com.mongodb.connection.ServerConnectionState;
import com.mongodb.connection.ServerDescription;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.geoshard.harness.api.WaitingNotice;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first contact of a phase with its server: waits until the driver has reached at least one
 * server, at most {@code mongodb.connect.wait.s} (default 30 s; the requests of a run keep the
 * scenario's server selection timeout, 500 s in the study), saying after a second what it waits for,
 * where and for how long at most, then every 10 s how long so far ({@link WaitingNotice}). A server
 * that never answers (a wrong port, a dead host, a server that accepts connections and says nothing)
 * ends the wait at the time named, in one sentence, not after the driver's own, longer, timeouts; an
 * interrupt (Ctrl-C) ends it at once.
 */
final class FirstContact {
  private static final Logger LOG = LoggerFactory.getLogger(FirstContact.class);
  private static final long POLL_MS = 50;

  private FirstContact() {
  }

  /**
   * Waits for the first server of {@code client}.
   *
   * @param hosts where the client tries (for messages)
   * @throws MongoStartException no server answered within the wait, or the wait was interrupted
   */
  static void await(MongoClient client, MongoSettings settings, List<String> hosts, String where)
      throws MongoStartException {
    // Never longer than the server selection the user asked for: a shorter one bounds the first contact too.
    long connectWait = settings.connection().connectWait(TimeUnit.MILLISECONDS);
    long selection = settings.connection().serverSelectionTimeout(TimeUnit.MILLISECONDS);
    String property = connectWait <= selection ? MongoSettings.CONNECT_WAIT : MongoSettings.SERVER_SELECTION_TIMEOUT;
    await(client::getClusterDescription, Math.min(connectWait, selection), property, hosts, where, LOG::info);
  }

  /**
   * The wait on any view of the cluster (tests give their own), progress lines to {@code progress}.
   *
   * @param property the property that set {@code waitMs}, named in every line
   */
  static void await(java.util.function.Supplier<ClusterDescription> cluster, long waitMs, String property,
      List<String> hosts, String where, Consumer<String> progress) throws MongoStartException {
    long start = System.nanoTime();
    try (WaitingNotice notice = WaitingNotice.start(String.join(", ", hosts), Duration.ofMillis(waitMs), property,
        progress)) {
      while (true) {
        ClusterDescription description = cluster.get();
        if (reached(description)) {
          return;
        }
        long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        if (waitedMs >= waitMs) {
          throw new MongoStartException("No MongoDB server answered at " + where + " within " + seconds(waitMs)
              + " s (" + property + ")" + Failures.tried(description) + "; check " + MongoSettings.URL
              + " and that the server runs.");
        }
        try {
          Thread.sleep(Math.min(POLL_MS, waitMs - waitedMs));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new MongoStartException("Interrupted while waiting for a MongoDB server at " + where + ".");
        }
      }
    }
  }

  /** True once the driver is connected to at least one server. */
  static boolean reached(ClusterDescription description) {
    for (ServerDescription server : description.getServerDescriptions()) {
      if (server.getState() == ServerConnectionState.CONNECTED && server.isOk()) {
        return true;
      }
    }
    return false;
  }

  private static long seconds(long ms) {
    return Math.round(ms / 1000.0);
  }
}
