package org.geoshard.mongodb.async;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.connection.ClusterConnectionMode;
import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import com.mongodb.reactivestreams.client.MongoCollection;
import com.mongodb.reactivestreams.client.MongoDatabase;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.bson.Document;
import org.geoshard.harness.api.Secrets;
import org.geoshard.mongodb.ClientOptions;
import org.geoshard.mongodb.MongoSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One router the binding sends requests to: the default ({@code mongodb.url}) or the router next to a
 * shard, with its own reactive streams client (a shard's pinned to its one host) and its counters.
 * Shared by every binding instance of a phase (through {@link Router}).
 *
 * <p>A request the driver never ends (its own callback threw: the driver logs "Callback onResult call
 * produced an error" and neither completes the publisher nor checks the connection back in) holds a
 * pooled connection for good; after as many as the pool has, every request would wait for a pooled
 * item. Such a request is {@link #abandoned() reported} by the waiting thread at its deadline, and the
 * client is then replaced: new requests go to a fresh pool at once, and the old client (with the lost
 * connection) is closed when every request sent on it has met its deadline.
 */
final class Endpoint {
  private static final Logger LOG = LoggerFactory.getLogger(Endpoint.class);
  private static final AtomicInteger THREADS = new AtomicInteger();
  /** Closes replaced clients once their last request's deadline has passed (one daemon thread per JVM). */
  private static final ScheduledExecutorService RETIRER = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "geoshard-client-retirer-" + THREADS.incrementAndGet());
    t.setDaemon(true);
    return t;
  });

  /** A client and what hangs off it: a request takes one and reports it if the driver abandons the request. */
  static final class Pool {
    private final MongoClient client;
    private final MongoDatabase database;
    private final Map<String, MongoCollection<Document>> collections = new ConcurrentHashMap<>();

    private Pool(MongoClient client, MongoDatabase database) {
      this.client = client;
      this.database = database;
    }

    MongoClient client() {
      return client;
    }

    MongoCollection<Document> collection(String name) {
      MongoCollection<Document> c = collections.get(name);
      return c != null ? c : collections.computeIfAbsent(name, database::getCollection);
    }
  }

  final String name;
  final String maskedUrl;
  final EndpointCounters counters;
  private final Supplier<MongoClient> opener;
  private final MongoSettings settings;
  private final long retireAfterMs;
  private volatile Pool pool;
  private final Set<MongoClient> retiring = ConcurrentHashMap.newKeySet();
  private final AtomicLong replaced = new AtomicLong();
  private boolean closed;

  private Endpoint(String name, String url, Supplier<MongoClient> opener, MongoSettings settings, EndpointCounters counters) {
    this.name = name;
    this.maskedUrl = Secrets.maskText(url);
    this.opener = opener;
    this.settings = settings;
    this.counters = counters;
    this.retireAfterMs = settings.connection().timeout(TimeUnit.MILLISECONDS) + 2 * Blocking.MARGIN_MS;
    this.pool = newPool();
    counters.maskedUrl = maskedUrl;
  }

  private Pool newPool() {
    MongoClient client = opener.get();
    return new Pool(client, ReactiveClientOptions.database(client, settings));
  }

  /**
   * Opens the client (lazily connecting, as the driver does).
   *
   * @param pinned true for a shard's router: the client talks to that one host only (direct connection),
   *     unless the URL asks for a load balancer (loadBalanced=true), which pins by itself
   */
  static Endpoint open(String name, String url, MongoSettings settings, boolean pinned, EndpointCounters counters) {
    ConnectionString cs = new ConnectionString(url);
    boolean loadBalanced = Boolean.TRUE.equals(cs.isLoadBalanced());
    MongoClientSettings clientSettings = ClientOptions.builder(cs, settings.connection())
        .applyToClusterSettings(b -> {
          if (pinned && !loadBalanced) {
            b.mode(ClusterConnectionMode.SINGLE);
          }
        })
        .addCommandListener(counters.commands)
        .build();
    return new Endpoint(name, url, () -> MongoClients.create(withOwnThreads(clientSettings)), settings, counters);
  }

  /**
   * The client's sockets on a channel group of its own, which its close shuts down. Without one, the
   * driver uses the JVM's default group, whose threads wait in the kernel (epoll) for the rest of the
   * process; the JVM's exit waits up to 300 ms for threads in native code to settle, so every
   * mongodb-async process, Ctrl-C included, ended 0.3 s after its last line. A new executor per client:
   * the group's end shuts its executor down, and a replacement client (see {@link #abandoned}) needs its own.
   */
  static MongoClientSettings withOwnThreads(MongoClientSettings clientSettings) {
    AtomicInteger threads = new AtomicInteger();
    java.util.concurrent.ExecutorService executor = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "geoshard-async-io-" + threads.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    return MongoClientSettings.builder(clientSettings)
        .transportSettings(com.mongodb.connection.TransportSettings.asyncBuilder().executorService(executor).build())
        .build();
  }

  /** The current client's pool: a request sends on it and names it if it is abandoned. */
  Pool current() {
    return pool;
  }

  /**
   * A request on this endpoint was never ended by the driver (see the class comment): replaces the
   * client, unless it was replaced since {@code sentOn} was current.
   *
   * @param sentOn the pool the request went out on
   */
  void abandoned(Pool sentOn) {
    Pool old;
    synchronized (this) {
      old = pool;
      if (closed || old != sentOn) {
        return;  // already replaced (several requests lost at once) or closing anyway
      }
      pool = newPool();
      retiring.add(old.client);
    }
    long n = replaced.incrementAndGet();
    LOG.warn("The driver never ended a request to {} ({}): its pooled connection is lost, so the client was replaced "
        + "(replacement {}); the old one closes in {} ms, when every request sent on it has met its deadline",
        name, maskedUrl, n, retireAfterMs);
    RETIRER.schedule(() -> retire(old.client), retireAfterMs, TimeUnit.MILLISECONDS);
  }

  private void retire(MongoClient client) {
    if (retiring.remove(client)) {
      client.close();
    }
  }

  /** Clients replaced so far (tests). */
  long replacements() {
    return replaced.get();
  }

  void close() {
    synchronized (this) {
      closed = true;
    }
    pool.client.close();
    for (MongoClient old : List.copyOf(retiring)) {
      retire(old);
    }
  }

  @Override
  public String toString() {
    return name + " (" + maskedUrl + ")";
  }
}
