package org.geoshard.mongodb.async;

import com.mongodb.MongoException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.bson.BsonDocument;
import org.bson.BsonTimestamp;
import org.bson.BsonValue;
import org.bson.Document;
import org.geoshard.harness.api.Secrets;
import org.geoshard.mongodb.ClientCloser;
import org.geoshard.mongodb.Failures;
import org.geoshard.mongodb.MongoSettings;
import org.geoshard.mongodb.MongoStartException;
import org.geoshard.mongodb.SharedClients;
import org.geoshard.mongodb.routing.ConfigDocuments;
import org.geoshard.mongodb.routing.ConfigSource;
import org.geoshard.mongodb.routing.RoutingTable;
import org.geoshard.mongodb.routing.ShardKeyPattern;
import org.geoshard.mongodb.async.RoutingStats.Fallback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.DBException;

/**
 * Where each request goes, shared by every binding instance (client thread) of a phase with the same
 * settings ({@link Routers}), counted by reference like binding-sync's shared clients: the default router's client,
 * one pinned client per shard router ({@code targeted}), the routing tables by namespace, and the
 * thread that keeps them current.
 *
 * <p><b>Tables.</b> A namespace's table is read through the default router from {@code config.*} on
 * first use ({@code initial}) and after a preparation ({@code onDemand}); every
 * {@code mongodb.targeted.refresh} seconds one thread looks at the collection's catalog entry and the
 * newest chunk {@code lastmod} (two small queries per namespace) and reads the whole table again when
 * either changed ({@code collectionChanged}, {@code versionChanged}). Requests meanwhile use the table
 * they find (a volatile read); a stale one only sends a request to a router that is not next to the
 * owning shard, which forwards it: a hop, never a wrong answer.
 *
 * <p><b>Control plane.</b> The catalog reads, the server facts and the collection checks use the sync
 * driver's shared client of the default URL (binding-sync's {@link SharedClients}), which also makes
 * an unreachable server fail {@code init} with binding-sync's sentence.
 */
final class Router {
  static final String DEFAULT = "default";
  private static final Logger LOG = LoggerFactory.getLogger(Router.class);
  private static final AtomicInteger THREADS = new AtomicInteger();

  /** One namespace's current table; the binding instances keep a reference and read it per request. */
  static final class Table {
    final String namespace;
    /** The collection's name within the database. */
    final String collection;
    volatile RoutingTable current;
    /** Why there is no table (null when there is one). */
    volatile String unavailable;
    private volatile boolean loaded;
    /** The shards without a router that own chunks of the current table (warned once per table). */
    private volatile Set<String> unrouted = Set.of();

    Table(String namespace) {
      this.namespace = namespace;
      this.collection = namespace.substring(namespace.indexOf('.') + 1);
    }
  }

  private final Routers registry;
  private final AsyncSettings.Key key;
  final AsyncSettings settings;
  final RoutingStats stats;
  final SharedClients.Lease control;
  final Endpoint defaultEndpoint;
  private final Map<String, Endpoint> shardEndpoints;
  private final ConfigSource source;
  private final Map<String, Table> tables = new ConcurrentHashMap<>();
  private final ScheduledExecutorService poller;
  /** Binding instances holding this router; guarded by the registry. */
  int references;
  /** Set by the first of the last release and the phase's end; guarded by this. */
  private boolean closed;

  private Router(Routers registry, AsyncSettings.Key key, AsyncSettings settings, RoutingStats stats, SharedClients.Lease control,
      Endpoint defaultEndpoint, Map<String, Endpoint> shardEndpoints, ConfigSource source) {
    this.registry = registry;
    this.key = key;
    this.settings = settings;
    this.stats = stats;
    this.control = control;
    this.defaultEndpoint = defaultEndpoint;
    this.shardEndpoints = shardEndpoints;
    this.source = source;
    if (settings.targeted()) {
      poller = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "geoshard-routing-" + THREADS.incrementAndGet());
        t.setDaemon(true);
        return t;
      });
      poller.scheduleWithFixedDelay(this::poll, settings.refreshSeconds(), settings.refreshSeconds(), TimeUnit.SECONDS);
    } else {
      poller = null;
    }
  }

  /** Lets go of one reference; the last one closes the clients and stops the refresh thread. */
  void release() {
    if (registry.release(this, key)) {
      closeNow();
    }
  }

  /** Closes the clients and stops the refresh thread (the last release, or the phase's end); once. */
  void closeNow() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    if (poller != null) {
      poller.shutdownNow();
    }
    // All at once, and none waited for beyond ClientCloser.WAIT: a stalled server never answers the endSessions
    // each client's close sends, and a Ctrl-C must not wait for it.
    List<ClientCloser.Closing> closings = new ArrayList<>();
    closings.add(new ClientCloser.Closing(defaultEndpoint.maskedUrl, defaultEndpoint::close));
    shardEndpoints.values().forEach(e -> closings.add(new ClientCloser.Closing(e.maskedUrl, e::close)));
    closings.add(new ClientCloser.Closing(Secrets.maskText(control.entry().effectiveUrl) + " (control)", control::close));
    ClientCloser.closeAll(closings, ClientCloser.WAIT);
  }

  /** A new router for {@code settings} (by {@link Routers#acquire}, under its lock). */
  static Router open(Routers registry, AsyncSettings.Key key, AsyncSettings settings, ConfigSource givenSource)
      throws DBException {
    SharedClients.Lease control = registry.clients().acquire(settings.mongo());
    RoutingStats stats = registry.stats(key);
    List<Endpoint> opened = new ArrayList<>();
    try {
      Endpoint def = Endpoint.open(DEFAULT, control.entry().effectiveUrl, settings.mongo(), false, stats.endpoint(DEFAULT));
      opened.add(def);
      Map<String, Endpoint> shards = new TreeMap<>();
      if (settings.targeted()) {
        for (Map.Entry<String, String> e : settings.endpoints().entrySet()) {
          Endpoint ep = Endpoint.open(e.getKey(), e.getValue(), settings.mongo(), true, stats.endpoint(e.getKey()));
          opened.add(ep);
          shards.put(e.getKey(), ep);
        }
        checkRouters(settings, control, shards);
      }
      ConfigSource source = givenSource != null ? givenSource : new SyncConfigSource(control.client());
      String routing = settings.routing().name().toLowerCase(java.util.Locale.ROOT)
          + (settings.targeted() ? " over " + shards.values() + ", refreshed every " + settings.refreshSeconds() + " s" : "");
      if (registry.firstOpening(key)) {
        LOG.info("MongoDB routing {}", routing);  // once per phase: the last instance's release and the next opening repeat it
      } else {
        LOG.debug("MongoDB routing {} (opened again in the phase)", routing);
      }
      return new Router(registry, key, settings, stats, control, def, shards, source);
    } catch (DBException | RuntimeException e) {
      opened.forEach(Endpoint::close);
      control.close();
      throw e;
    }
  }

  /**
   * Asks every shard router at once what it is ({@code isMaster}, which every server version answers):
   * each must answer, and be a mongos ({@code msg: "isdbgrid"}): a write sent straight to a shard's
   * mongod is rejected from 8.0 and, before, becomes an orphan that reads through a mongos never see.
   * Then every router must belong to the cluster of {@code mongodb.url} (the same {@code clusterId} in
   * {@code config.version}), or requests would be spread over two clusters.
   */
  private static void checkRouters(AsyncSettings settings, SharedClients.Lease control, Map<String, Endpoint> shards)
      throws DBException {
    long timeoutMs = settings.mongo().connection().timeout(TimeUnit.MILLISECONDS);
    List<Endpoint> list = new ArrayList<>(shards.values());
    List<org.reactivestreams.Publisher<Document>> hellos = new ArrayList<>();
    List<org.reactivestreams.Publisher<Document>> versions = new ArrayList<>();
    List<Runnable> abandoned = new ArrayList<>();
    for (Endpoint e : list) {
      Endpoint.Pool pool = e.current();
      hellos.add(pool.client().getDatabase("admin").runCommand(new Document("isMaster", 1)));
      versions.add(pool.client().getDatabase("config").getCollection("version").find().first());
      abandoned.add(() -> e.abandoned(pool));
    }
    List<Object> answers = Blocking.settle(hellos, timeoutMs, abandoned);
    List<String> problems = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      Endpoint e = list.get(i);
      String which = "the router of shard '" + e.name + "' (" + AsyncSettings.TARGETED_MONGOS_PREFIX + e.name + " = "
          + e.maskedUrl + ")";
      if (answers.get(i) instanceof Throwable t) {
        problems.add(which + " failed within " + settings.mongo().connection().serverSelectionTimeout(TimeUnit.SECONDS)
            + " s: " + Secrets.maskText(Failures.brief(t)));
      } else if (!(answers.get(i) instanceof Document hello) || !"isdbgrid".equals(hello.getString("msg"))) {
        problems.add(which + " is not a mongos but a " + (answers.get(i) instanceof Document hello
            && hello.getString("setName") != null ? "replica set member" : "mongod") + " (writes sent to a shard directly "
            + "are rejected from MongoDB 8.0 and, before, become orphans that reads through a mongos never see)");
      }
    }
    if (!problems.isEmpty()) {
      throw new MongoStartException("Targeted routing cannot start: " + String.join("; ", problems)
          + ". Give each shard the URL of a mongos next to it.");
    }
    Object expected;
    try {
      Document version = control.client().getDatabase("config").getCollection("version").find().first();
      expected = version == null ? null : version.get("clusterId");
    } catch (MongoException e) {
      expected = null;
    }
    List<Object> ids = Blocking.settle(versions, timeoutMs, abandoned);
    if (expected == null) {
      LOG.warn("Cannot read the cluster id of {} (config.version); not checking that the routers belong to it.",
          Secrets.maskText(control.entry().effectiveUrl));
      return;
    }
    for (int i = 0; i < list.size(); i++) {
      Object id = ids.get(i) instanceof Document d ? d.get("clusterId") : null;
      if (!expected.equals(id)) {
        problems.add("the router of shard '" + list.get(i).name + "' (" + list.get(i).maskedUrl + ") belongs to "
            + (id == null ? "a cluster whose id it does not tell" : "cluster " + id) + ", not to cluster " + expected
            + " of " + MongoSettings.URL);
      }
    }
    if (!problems.isEmpty()) {
      throw new MongoStartException("Targeted routing cannot start: " + String.join("; ", problems) + ".");
    }
  }

  // ---- routing ----

  /** The namespace's table, read on first use (by the first thread that needs it; the others wait for it). */
  Table table(String namespace) {
    Table t = tables.computeIfAbsent(namespace, Table::new);
    if (!t.loaded && settings.targeted()) {
      synchronized (t) {
        if (!t.loaded) {
          load(t, "initial");
          t.loaded = true;
        }
      }
    }
    return t;
  }

  /** The router for writing a document (its full shard key; missing fields count as null). */
  Endpoint byDocument(Table t, Document document) {
    if (!settings.targeted()) {
      return defaultEndpoint;
    }
    RoutingTable table = t.current;
    if (table == null || !table.sharded()) {
      return unsharded(table);
    }
    return owner(table, table.pattern().ofDocument(document));
  }

  /** The router for a query filter (the shard key fields it pins with equalities, in key order). */
  Endpoint byFilter(Table t, Document filter) {
    if (!settings.targeted()) {
      return defaultEndpoint;
    }
    RoutingTable table = t.current;
    if (table == null || !table.sharded()) {
      return unsharded(table);
    }
    return owner(table, table.pattern().ofFilter(filter));
  }

  /** A request without a shard key (a scan, a near query): the default router. */
  Endpoint keyless() {
    if (settings.targeted()) {
      stats.fallback(Fallback.NO_SHARD_KEY);
    }
    return defaultEndpoint;
  }

  private Endpoint unsharded(RoutingTable table) {
    stats.fallback(table == null ? Fallback.TABLE_UNAVAILABLE : Fallback.UNSHARDED);
    return defaultEndpoint;
  }

  private Endpoint owner(RoutingTable table, BsonValue[] key) {
    if (key.length == 0) {
      stats.fallback(Fallback.NO_SHARD_KEY);
      return defaultEndpoint;
    }
    String shard = table.ownerOf(key);
    if (shard == null) {
      stats.fallback(Fallback.SPANS_SHARDS);
      return defaultEndpoint;
    }
    Endpoint e = shardEndpoints.get(shard);
    if (e == null) {
      stats.fallback(Fallback.NO_ENDPOINT);
      return defaultEndpoint;
    }
    return e;
  }

  /** The endpoint of a shard (tests), or null. */
  Endpoint endpoint(String shard) {
    return shardEndpoints.get(shard);
  }

  // ---- refreshing ----

  /** Reads every known namespace's table again now (after a preparation sharded a collection). */
  void refreshAll(String reason) {
    if (!settings.targeted()) {
      return;
    }
    for (Table t : tables.values()) {
      synchronized (t) {
        load(t, reason);
        t.loaded = true;
      }
    }
  }

  /** Reads one namespace's table again now. */
  void refresh(String namespace, String reason) {
    Table t = table(namespace);
    synchronized (t) {
      load(t, reason);
    }
  }

  private void load(Table t, String reason) {
    try {
      RoutingTable table = ConfigDocuments.load(source, t.namespace);
      t.current = table;
      t.unavailable = null;
      stats.refreshed(reason);
      stats.table(t.namespace, table.describe());
      LOG.debug("Routing table of {} ({}): {}", t.namespace, reason, table);
      Set<String> unrouted = new java.util.TreeSet<>(table.owningShards());
      unrouted.removeAll(shardEndpoints.keySet());
      if (!unrouted.isEmpty() && !unrouted.equals(t.unrouted)) {
        LOG.warn("Shards {} own chunks of {} but have no router in {}<shardId>: their requests go through {}.",
            unrouted, t.namespace, AsyncSettings.TARGETED_MONGOS_PREFIX, defaultEndpoint.maskedUrl);
      }
      t.unrouted = unrouted;
      Set<String> unknown = new java.util.TreeSet<>(shardEndpoints.keySet());
      unknown.removeAll(table.shardHosts().keySet());
      if (!unknown.isEmpty() && !table.shardHosts().isEmpty() && reason.equals("initial")) {
        LOG.warn("{}{} names shards that config.shards does not list ({}): known shards are {}.",
            AsyncSettings.TARGETED_MONGOS_PREFIX, unknown, unknown, table.shardHosts().keySet());
      }
    } catch (MongoException | IllegalArgumentException e) {
      String why = Secrets.maskText(e instanceof MongoException ? Failures.brief(e) : e.getMessage());
      if (t.current == null && t.unavailable == null) {
        LOG.warn("Cannot read the routing table of {} through {} ({}); its requests go through that router until it can.",
            t.namespace, defaultEndpoint.maskedUrl, why);
      }
      if (t.current == null) {
        t.unavailable = why;
        stats.table(t.namespace, Map.of("namespace", t.namespace, "unavailable", why));
      }
    }
  }

  /** One look at every namespace: reads a table again when its collection or version changed. */
  void poll() {
    for (Table t : tables.values()) {
      boolean ok = true;
      try {
        RoutingTable current = t.current;
        BsonDocument collection = source.collection(t.namespace);
        if (current == null) {
          synchronized (t) {
            load(t, "retry");
          }
        } else if (!ConfigDocuments.sameCollection(current, collection)) {
          synchronized (t) {
            load(t, "collectionChanged");
          }
        } else if (current.sharded()) {
          BsonTimestamp newest = source.newestLastmod(t.namespace, collection);
          if (!Objects.equals(newest, current.version())) {
            synchronized (t) {
              load(t, "versionChanged");
            }
          }
        }
      } catch (RuntimeException e) {
        ok = false;
        LOG.debug("Routing poll of {} failed: {}", t.namespace, e.toString());
      }
      stats.polled(ok);
    }
  }

  // ---- checks and description ----

  Map<String, Object> describe() {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("mode", settings.routing().name().toLowerCase(java.util.Locale.ROOT));
    if (settings.targeted()) {
      out.put("refreshSeconds", settings.refreshSeconds());
    }
    out.putAll(stats.describe());
    return out;
  }

  /** The shard key pattern of a namespace's current table (tests, benchmark), or null. */
  ShardKeyPattern pattern(String namespace) {
    RoutingTable t = table(namespace).current;
    return t == null ? null : t.pattern();
  }
}
