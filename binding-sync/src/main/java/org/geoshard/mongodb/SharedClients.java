package org.geoshard.mongodb;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.geoshard.harness.api.RunContext;
import org.geoshard.harness.api.Secrets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.DBException;

/**
 * One {@link MongoClient} per phase and URL, shared by every binding instance (one per client thread),
 * counted by reference and closed when the last instance lets go, or at the phase's end ({@link #close()}),
 * whichever comes first.
 *
 * <p>One object per phase, held by the phase's {@link RunContext} ({@link #in}): YCSB's contract creates
 * one {@code DB} instance per client thread, and the threads must share one connection pool (as YCSB's
 * own mongodb binding does with its static client). A pool per thread would open threads × maxPoolSize
 * connections and measure connection set-up instead of queries. The maps are keyed by the connection settings
 * ({@link MongoConnectionSettings}: equal when they make the same client), so that two clusters in one phase (tests) keep apart, and everything in it is guarded by
 * {@link #lock}. Under plain YCSB the context is the JVM's ({@link org.geoshard.harness.api.StandaloneRun}).
 */
public final class SharedClients implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SharedClients.class);
  /** A lock, not a monitor: a thread waiting behind another's first contact can be interrupted (Ctrl-C). */
  private final java.util.concurrent.locks.ReentrantLock lock = new java.util.concurrent.locks.ReentrantLock();
  /** Open clients by the connection settings they were made from; guarded by lock. */
  private final Map<MongoConnectionSettings, Entry> clients = new HashMap<>();
  /** Failures to open, kept for one server selection timeout so that the other threads fail at once; guarded by lock. */
  private final Map<MongoConnectionSettings, RecentFailure> failed = new HashMap<>();
  /** Command counters by connection settings; they outlive a client so that the topology after a run sees the run's commands. */
  private final Map<MongoConnectionSettings, CommandCounters> counters = new ConcurrentHashMap<>();
  /** The throwaway clusters of {@code testcontainers:} URLs, stopped after these clients ({@link #in}). */
  private final ThrowawayClusters throwaway;
  /**
   * The connection settings whose pool was already warned about: a client closed by its last instance
   * and opened again by the next (the checks, the threads, the topology after the run) is the same
   * pool, said once per phase; guarded by lock.
   */
  private final java.util.Set<MongoConnectionSettings> announced = new java.util.HashSet<>();
  /**
   * The servers already said, by URL: the phase's instances do not all make the same client (the start
   * checks run before the pool is sized to the client threads), but it is one server; guarded by lock.
   */
  private final java.util.Set<String> described = new java.util.HashSet<>();
  /** Set by {@link #close()}; guarded by lock. */
  private boolean closed;

  private record RecentFailure(String message, long expiresNanos) {
  }

  SharedClients(ThrowawayClusters throwaway) {
    this.throwaway = throwaway;
  }

  /**
   * The phase's shared clients, made on first use. The phase's throwaway clusters are made before
   * them, so that the context, closing latest first, closes the clients before it stops the clusters.
   */
  public static SharedClients in(RunContext context) {
    ThrowawayClusters clusters = context.shared(ThrowawayClusters.class, ThrowawayClusters.class, ThrowawayClusters::new);
    return context.shared(SharedClients.class, SharedClients.class, () -> new SharedClients(clusters));
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
    private final SharedClients owner;
    private final MongoConnectionSettings key;
    private final Entry entry;
    private boolean closed;

    private Lease(SharedClients owner, MongoConnectionSettings key, Entry entry) {
      this.owner = owner;
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
      boolean last;
      owner.lock.lock();
      try {
        if (closed) {
          return;
        }
        closed = true;
        last = --entry.references == 0;
        if (last) {
          owner.clients.remove(key, entry);
        }
      } finally {
        owner.lock.unlock();
      }
      if (last) {
        // Outside the lock, and not waiting on a server that stopped answering (ClientCloser); idempotent: the
        // phase's end may have closed it already.
        ClientCloser.close(Secrets.maskText(entry.effectiveUrl), entry.client::close);
        LOG.debug("Closed the MongoDB client of {}", Secrets.maskText(entry.effectiveUrl));
      }
    }
  }

  /**
   * The shared client for {@code settings}, opened (and the server asked what it is) on first use.
   *
   * @throws DBException one sentence: no server reachable (where it tried), authentication failed, ...
   */
  public Lease acquire(MongoSettings settings) throws DBException {
    MongoConnectionSettings key = settings.connection();
    try {
      lock.lockInterruptibly();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new MongoStartException("Interrupted while waiting for a MongoDB server at " + settings.connection().maskedUrl() + ".");
    }
    try {
      if (closed) {
        throw new MongoStartException("The MongoDB client of " + settings.connection().maskedUrl()
            + " was asked for after the end of its phase.");
      }
      Entry entry = clients.get(key);
      if (entry == null) {
        RecentFailure failure = failed.get(key);
        if (failure != null && System.nanoTime() - failure.expiresNanos < 0) {
          throw new MongoStartException(failure.message);
        }
        try {
          entry = open(settings, key);
        } catch (MongoStartException e) {
          failed.put(key, new RecentFailure(e.getMessage(),
              System.nanoTime() + settings.connection().serverSelectionTimeout(TimeUnit.NANOSECONDS)));
          throw e;
        }
        failed.remove(key);
        clients.put(key, entry);
      }
      entry.references++;
      return new Lease(this, key, entry);
    } finally {
      lock.unlock();
    }
  }

  /** The command counters of the client of {@code settings}, if it was ever opened in this phase. */
  CommandCounters counters(MongoSettings settings) {
    return counters.get(settings.connection());
  }

  /** Open clients (for tests: every binding instance let go of its client). */
  int openClients() {
    lock.lock();
    try {
      return clients.size();
    } finally {
      lock.unlock();
    }
  }

  /**
   * The phase's end: closes the clients still held (by binding instances the harness abandoned, or never
   * cleaned up), and refuses new ones. Idempotent.
   */
  @Override
  public void close() {
    List<Entry> left;
    lock.lock();
    try {
      closed = true;
      left = new ArrayList<>(clients.values());
      clients.clear();
      failed.clear();
    } finally {
      lock.unlock();
    }
    List<ClientCloser.Closing> closings = new ArrayList<>();
    for (Entry entry : left) {
      LOG.debug("Closing the MongoDB client of {} at the end of the phase ({} binding instances still held it)",
          Secrets.maskText(entry.effectiveUrl), entry.references);
      closings.add(new ClientCloser.Closing(Secrets.maskText(entry.effectiveUrl), entry.client::close));
    }
    ClientCloser.closeAll(closings, ClientCloser.WAIT);
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

  private Entry open(MongoSettings settings, MongoConnectionSettings key) throws DBException {
    String url = key.throwaway() == null ? key.url() : throwaway.url(key.throwaway(), key.database());
    ConnectionString cs = new ConnectionString(url);
    CommandCounters counters = this.counters.computeIfAbsent(key, k -> new CommandCounters());
    MongoClientSettings.Builder builder = ClientOptions.builder(cs, key).addCommandListener(counters);
    MongoClient client = MongoClients.create(builder.build());
    boolean first = !announced.contains(key);
    if (first) {
      warnIfPoolTooSmall(key, url);
    }
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
      announced.add(key);
      if (described.add(url)) {
        LOG.info("{} at {}", facts.named(), Secrets.maskText(url));
      } else {
        LOG.debug("{} at {} (opened again in the phase)", facts.named(), Secrets.maskText(url));
      }
      return new Entry(client, facts, url, counters);
    } catch (RuntimeException e) {
      String message = Failures.describe(e, settings, url, client.getClusterDescription());
      LOG.debug("{}", message, e);
      client.close();
      throw new MongoStartException(message);
    }
  }
}
