package org.geoshard.mongodb.async;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.geoshard.harness.api.RunContext;
import org.geoshard.harness.api.Secrets;
import org.geoshard.mongodb.MongoStartException;
import org.geoshard.mongodb.SharedClients;
import org.geoshard.mongodb.routing.ConfigSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.DBException;

/**
 * The routers of one phase ({@link Router}), one per configuration ({@link AsyncSettings#key()}),
 * shared by its binding instances and counted by reference, and the routing's counters
 * ({@link RoutingStats}), which outlive the routers so that a binding instance made after the run (the
 * harness's topology) reports what the run's threads did. Held by the phase's {@link RunContext}
 * ({@link #in}); its end closes the routers still open. Under plain YCSB the context is the JVM's.
 */
final class Routers implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Routers.class);
  private final SharedClients clients;
  private final Object lock = new Object();
  /** Open routers by {@link AsyncSettings#key()}; guarded by lock. */
  private final Map<AsyncSettings.Key, Router> open = new HashMap<>();
  /** The counters by {@link AsyncSettings#key()}, never dropped within the phase. */
  private final Map<AsyncSettings.Key, RoutingStats> stats = new ConcurrentHashMap<>();
  /** The configurations whose routing was already said (one line per phase, not one per opening); guarded by lock. */
  private final java.util.Set<AsyncSettings.Key> described = new java.util.HashSet<>();
  /** Set by {@link #close()}; guarded by lock. */
  private boolean closed;

  Routers(SharedClients clients) {
    this.clients = clients;
  }

  /**
   * The phase's routers, made on first use, after its shared clients: the context, closing latest
   * first, closes the routers (and their holds on the shared clients) before the clients.
   */
  static Routers in(RunContext context) {
    SharedClients clients = SharedClients.in(context);
    return context.shared(Routers.class, Routers.class, () -> new Routers(clients));
  }

  /**
   * The shared router for {@code settings}, opened on first use: the default router checked through
   * the sync client, each shard's router pinged.
   *
   * @throws DBException one sentence: which router did not answer, where, and what to check
   */
  Router acquire(AsyncSettings settings) throws DBException {
    return acquire(settings, null);
  }

  /** As {@link #acquire(AsyncSettings)}, with a catalog source of its own (tests). */
  Router acquire(AsyncSettings settings, ConfigSource source) throws DBException {
    AsyncSettings.Key key = settings.key();
    synchronized (lock) {
      if (closed) {
        throw new MongoStartException("The routing of " + settings.mongo().connection().maskedUrl()
            + " was asked for after the end of its phase.");
      }
      Router router = open.get(key);
      if (router == null) {
        router = Router.open(this, key, settings, source);
        open.put(key, router);
      }
      router.references++;
      return router;
    }
  }

  /** Lets go of one reference to {@code router}: true when it was the last (the caller then closes it). */
  boolean release(Router router, AsyncSettings.Key key) {
    synchronized (lock) {
      if (--router.references > 0) {
        return false;
      }
      open.remove(key, router);
      return true;
    }
  }

  /** True the first time a router of {@code key} opens in the phase (by {@link Router#open}, under the lock). */
  boolean firstOpening(AsyncSettings.Key key) {
    return described.add(key);
  }

  /** The clients the routers' control planes use. */
  SharedClients clients() {
    return clients;
  }

  /** The counters of a configuration, made on first use and kept for the phase. */
  RoutingStats stats(AsyncSettings.Key key) {
    return stats.computeIfAbsent(key, k -> new RoutingStats());
  }

  /** The counters of a configuration (tests, the topology). */
  RoutingStats statsOf(AsyncSettings settings) {
    return stats(settings.key());
  }

  /** Open routers (for tests: every instance let go). */
  int openRouters() {
    synchronized (lock) {
      return open.size();
    }
  }

  /**
   * The phase's end: closes the routers still open (instances the harness abandoned) and refuses new
   * ones. The phase's counters end with it: they are logged (debug), for a phase whose topology, where
   * they are recorded, could not be read (a router that stopped answering).
   */
  @Override
  public void close() {
    List<Router> left;
    synchronized (lock) {
      closed = true;
      left = new ArrayList<>(open.values());
      open.clear();
    }
    left.forEach(Router::closeNow);  // each waits at most ClientCloser.WAIT for its clients (a stalled server)
    if (LOG.isDebugEnabled()) {
      stats.forEach((key, counters) -> LOG.debug("The routing counters of {} at the end of the phase: {}",
          Secrets.maskText(key.toString()), counters.describe()));
    }
  }
}
