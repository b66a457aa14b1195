package org.geoshard.mongodb;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.geoshard.harness.api.Secrets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.DBException;

/**
 * One {@link MongoClient} per JVM and URL, shared by every binding instance (one per client thread),
 * counted by reference and closed when the last instance lets go.
 *
 * <p>Why static: YCSB's contract creates one {@code DB} instance per client thread and hands them
 * nothing in common but the properties, so a JVM-wide registry is the only place where the threads
 * can share one connection pool (as YCSB's own mongodb binding does with its static client). A pool
 * per thread would open threads × maxPoolSize connections and measure connection set-up instead of
 * queries. The maps are keyed by the connection settings ({@link MongoConnectionSettings}: equal when they
 * make the same client), so that two clusters in one JVM (tests) keep apart, and everything in them is
 * guarded by {@link #LOCK}.
 */
public final class SharedClients {
  private static final Logger LOG = LoggerFactory.getLogger(SharedClients.class);
  /** A lock, not a monitor: a thread waiting behind another's first contact can be interrupted (Ctrl-C). */
  private static final java.util.concurrent.locks.ReentrantLock LOCK = new java.util.concurrent.locks.ReentrantLock();
  /** Open clients by the connection settings they were made from (equal settings make the same client); guarded by LOCK. */
  private static final Map<MongoConnectionSettings, Entry> OPEN = new HashMap<>();
  /** Failures to open, kept for one server selection timeout so that the other threads fail at once; guarded by LOCK. */
  private static final Map<MongoConnectionSettings, RecentFailure> FAILED = new HashMap<>();
  /** Command counters by connection settings; they outlive a client so that the topology after a run sees the run's commands. */
  private static final Map<MongoConnectionSettings, CommandCounters> COUNTERS = new ConcurrentHashMap<>();

  private record RecentFailure(String message, long expiresNanos) {
  }

  private SharedClients() {
  }

  /** One shared client: the driver's client, what the server is, and checks already made on it. */
  public static final class Entry {
    public final MongoClient client;
    public final ServerFacts facts;
    public final String effectiveUrl;
    final CommandCounters counters;
    /** Collection checks already made (problem text, "" for none), by what was checked; guarded by itself. */
    final Map<String, String> checks = new HashMap<>();
    private int references;

    Entry(MongoClient client, ServerFacts facts, String effectiveUrl, CommandCounters counters) {
      this.client = client;
      this.facts = facts;
      this.effectiveUrl = effectiveUrl;
      this.counters = counters;
    }
  }

  /** A binding instance's hold on a shared client; {@link #close()} once. */
  public static final class Lease implements AutoCloseable {
    private final MongoConnectionSettings key;
    private final Entry entry;
    private boolean closed;

    private Lease(MongoConnectionSettings key, Entry entry) {
      this.key = key;
      this.entry = entry;
    }

    public MongoClient client() {
      return entry.client;
    }

    public ServerFacts facts() {
      return entry.facts;
    }

    public Entry entry() {
      return entry;
    }

    @Override
    public void close() {
      LOCK.lock();
      try {
        if (closed) {
          return;
        }
        closed = true;
        if (--entry.references == 0) {
          OPEN.remove(key);
          entry.client.close();
          LOG.debug("Closed the MongoDB client of {}", Secrets.maskText(entry.effectiveUrl));
        }
      } finally {
        LOCK.unlock();
      }
    }
  }

  /**
   * The shared client for {@code settings}, opened (and the server asked what it is) on first use.
   *
   * @throws DBException one sentence: no server reachable (where it tried), authentication failed, ...
   */
  public static Lease acquire(MongoSettings settings) throws DBException {
    MongoConnectionSettings key = settings.connection();
    try {
      LOCK.lockInterruptibly();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new MongoStartException("Interrupted while waiting for a MongoDB server at " + settings.connection().maskedUrl() + ".");
    }
    try {
      Entry entry = OPEN.get(key);
      if (entry == null) {
        RecentFailure failure = FAILED.get(key);
        if (failure != null && System.nanoTime() - failure.expiresNanos < 0) {
          throw new MongoStartException(failure.message);
        }
        try {
          entry = open(settings, key);
        } catch (MongoStartException e) {
          FAILED.put(key, new RecentFailure(e.getMessage(),
              System.nanoTime() + settings.connection().serverSelectionTimeout(TimeUnit.NANOSECONDS)));
          throw e;
        }
        FAILED.remove(key);
        OPEN.put(key, entry);
      }
      entry.references++;
      return new Lease(key, entry);
    } finally {
      LOCK.unlock();
    }
  }

  /** The command counters of the client of {@code settings}, if it was ever opened in this JVM. */
  static CommandCounters counters(MongoSettings settings) {
    return COUNTERS.get(settings.connection());
  }

  /** Open clients (for tests: every binding instance let go of its client). */
  static int openClients() {
    LOCK.lock();
    try {
      return OPEN.size();
    } finally {
      LOCK.unlock();
    }
  }

  /**
   * Threads beyond the pool queue inside the client for a connection: the measured maximum would be
   * the pool's, not the server's. Said once per client: every binding instance of both bindings holds
   * the shared client of {@code mongodb.url} (binding-async's routers get the same pool size).
   */
  private static void warnIfPoolTooSmall(MongoConnectionSettings settings, String url) {
    Integer threads = settings.clientThreads();
    if (threads != null && settings.poolSize() > 0 && threads > settings.poolSize()) {
      LOG.warn("{} client threads share a pool of {} connections to {} ({}): beyond {} threads requests queue inside"
          + " the client, and the measured maximum is the pool's; raise mongodb.maxconnections (or the URL's"
          + " maxPoolSize) to at least {}.", threads, settings.poolSize(), Secrets.maskText(url), settings.poolSource(),
          settings.poolSize(), threads);
    }
  }

  private static Entry open(MongoSettings settings, MongoConnectionSettings key) throws DBException {
    String url = key.throwaway() == null ? key.url() : ThrowawayClusters.url(key.throwaway(), key.database());
    ConnectionString cs = new ConnectionString(url);
    CommandCounters counters = COUNTERS.computeIfAbsent(key, k -> new CommandCounters());
    MongoClientSettings.Builder builder = ClientOptions.builder(cs, key).addCommandListener(counters);
    MongoClient client = MongoClients.create(builder.build());
    warnIfPoolTooSmall(key, url);
    try {
      // The first contact waits mongodb.connect.wait.s, saying so, not the run's server selection timeout.
      FirstContact.await(client, settings, cs.getHosts(), key.throwaway() == null ? key.maskedUrl()
          : key.maskedUrl() + " (" + Secrets.maskText(url) + ")");
    } catch (MongoStartException e) {
      client.close();
      throw e;
    }
    try {
      ServerFacts facts = ServerFacts.read(client);
      LOG.info("MongoDB {} at {}", facts.describe(), Secrets.maskText(url));
      return new Entry(client, facts, url, counters);
    } catch (RuntimeException e) {
      String message = Failures.describe(e, settings, url, client.getClusterDescription());
      LOG.debug("{}", message, e);
      client.close();
      throw new MongoStartException(message);
    }
  }
}
