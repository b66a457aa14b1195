package org.geoshard.mongodb.async;

import com.mongodb.MongoBulkWriteException;
import com.mongodb.MongoException;
import com.mongodb.client.model.InsertManyOptions;
import com.mongodb.client.model.ReplaceOneModel;
import com.mongodb.client.model.ReplaceOptions;
import com.mongodb.client.model.WriteModel;
import com.mongodb.client.result.DeleteResult;
import com.mongodb.client.result.UpdateResult;
import com.mongodb.event.CommandListener;
import com.mongodb.reactivestreams.client.FindPublisher;
import com.mongodb.reactivestreams.client.MongoCollection;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import org.bson.BsonString;
import org.bson.Document;
import org.bson.types.Binary;
import org.geoshard.geo.GeoWorkload;
import org.geoshard.geo.contract.GeoContract;
import org.geoshard.geo.contract.GeoHit;
import org.geoshard.geo.contract.GeoQuery;
import org.geoshard.geo.contract.Restaurant;
import org.geoshard.geo.dataset.Sphere;
import org.geoshard.harness.api.DescribesTopology;
import org.geoshard.harness.api.Preparable;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.config.Secrets;
import org.geoshard.lastlocation.contract.DelegatingLastLocation;
import org.geoshard.lastlocation.contract.LastLocationContract;
import org.geoshard.lastlocation.contract.LocationEvent;
import org.geoshard.mongodb.CollectionChecks;
import org.geoshard.mongodb.Failures;
import org.geoshard.mongodb.FailureLog;
import org.geoshard.mongodb.InsertBuffer;
import org.geoshard.mongodb.YcsbDocuments;
import org.geoshard.mongodb.MongoGeoBinding;
import org.geoshard.mongodb.MongoLastLocationSettings;
import org.geoshard.mongodb.MongoStartException;
import org.geoshard.mongodb.CellKeyPlan;
import org.geoshard.mongodb.NearQuery;
import org.geoshard.mongodb.RestaurantDocuments;
import org.reactivestreams.Publisher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * Binding {@code mongodb-async}: MongoDB through the official reactive streams driver, with targeted
 * routing. It serves what {@code mongodb-geo} serves, with the same documents, queries and
 * preparation (shared from binding-sync): YCSB's five operations ({@code _id} the key, binary fields),
 * the geo contract, the last-location contract, preparation and topology.
 *
 * <p>With {@code mongodb.routing=targeted} each request whose shard key value the binding knows (YCSB's
 * operations by {@code _id}, inserts by their document, last-location requests by user) goes to the
 * router next to the shard that owns it ({@link Router}); the rest (scans, near queries) to
 * {@code mongodb.url}. A batch of inserts is split by owner and its parts written concurrently.
 *
 * <p>YCSB's threads call synchronously: each request subscribes on the calling thread and parks until
 * the driver completes it ({@link Blocking}); no executor in between. One instance per client thread;
 * all instances of a JVM share the clients and the routing tables.
 */
public final class MongoAsyncBinding extends DB implements GeoContract, DelegatingLastLocation, Preparable,
    DescribesTopology {
  private static final Logger LOG = LoggerFactory.getLogger(MongoAsyncBinding.class);
  private static final InsertManyOptions UNORDERED = new InsertManyOptions().ordered(false);
  private static final ReplaceOptions UPSERT = new ReplaceOptions().upsert(true);
  private static final FailureLog FAILURE_LOG = new FailureLog(LOG);
  private static final String ID = "_id";

  private final List<CommandListener> extraListeners;
  private AsyncSettings settings;
  private CellKeyPlan cellKey;
  private MongoLastLocationSettings llSettings;
  private Router router;
  private InsertBuffer geoBuffer;
  private Router.Table geoTable;
  private AsyncLastLocation lastLocation;
  private final Map<String, InsertBuffer> ycsbBuffers = new LinkedHashMap<>();
  /** This thread's tables by collection name (no shared map on the request path). */
  private final Map<String, Router.Table> tables = new HashMap<>();
  private String loadCheck;
  private String queryCheck;
  /** The sync binding that prepares and describes (made only for those, on the harness's own instance). */
  private MongoGeoBinding delegate;

  /** As the harness makes it, one per client thread. */
  public MongoAsyncBinding() {
    this(List.of());
  }

  /** With listeners on every command of every client (tests observe where requests go). */
  MongoAsyncBinding(List<CommandListener> extraListeners) {
    this.extraListeners = List.copyOf(extraListeners);
  }

  @Override
  public void init() throws DBException {
    try {
      settings = AsyncSettings.fromProperties(getProperties(), extraListeners);
      cellKey = CellKeyPlan.of(settings.mongo().shardKey(), getProperties());
      llSettings = MongoLastLocationSettings.fromProperties(getProperties());
    } catch (ConfigException e) {
      throw new DBException(e.getMessage());
    }
    router = Router.acquire(settings);
    geoBuffer = new InsertBuffer(settings.mongo().geoBatchSize());
    geoTable = router.table(settings.mongo().namespace());
    lastLocation = new AsyncLastLocation(router, settings.mongo().database(), llSettings, MongoAsyncBinding::failed);
    // The YCSB table's routing is read now rather than at the first measured request.
    table(getProperties().getProperty("table", "usertable"));
    if (Boolean.TRUE.equals(settings.mongo().doTransactions())
        && GeoWorkload.class.getName().equals(getProperties().getProperty("workload"))) {
      String problem = checked(true);
      if (problem != null) {
        release();
        throw new MongoStartException(problem);
      }
    }
  }

  @Override
  public void cleanup() throws DBException {
    if (router == null) {
      return;
    }
    List<String> failed = new ArrayList<>();
    try {
      geoBuffer.drain(batch -> {
        if (!insertRouted(geoTable, batch, Op.GEO_INSERT)) {
          failed.add(batch.size() + " restaurants");
        }
      });
      if (lastLocation.flush() != Status.OK) {
        failed.add("location events");
      }
      for (Map.Entry<String, InsertBuffer> e : ycsbBuffers.entrySet()) {
        e.getValue().drain(batch -> {
          if (!writeYcsbBatch(table(e.getKey()), batch)) {
            failed.add(batch.size() + " records of " + e.getKey());
          }
        });
      }
    } finally {
      release();
    }
    if (!failed.isEmpty()) {
      throw new DBException("The final insertMany failed for " + String.join(", ", failed) + " (see the log above).");
    }
  }

  private void release() throws DBException {
    if (delegate != null) {
      MongoGeoBinding d = delegate;
      delegate = null;
      d.cleanup();
    }
    if (router != null) {
      router.release();
      router = null;
    }
  }

  static void failed(String what, Exception e) {
    FAILURE_LOG.failed(what, e);
  }

  private Router.Table table(String name) {
    Router.Table t = tables.get(name);
    if (t == null) {
      t = router.table(settings.mongo().database() + "." + name);
      tables.put(name, t);
    }
    return t;
  }

  private static MongoCollection<Document> on(Endpoint endpoint, Router.Table table) {
    return endpoint.collection(table.collection);
  }

  /** The router of a YCSB request by key, counted. */
  private Endpoint byId(Router.Table t, String key, Op op) {
    Endpoint e = router.byField(t, ID, new BsonString(key));
    e.counters.sent(op);
    return e;
  }

  // ---- YCSB's operations ----

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    Document document = new Document(ID, key);
    for (Map.Entry<String, ByteIterator> field : values.entrySet()) {
      document.append(field.getKey(), new Binary(field.getValue().toArray()));
    }
    Router.Table t = table(table);
    if (settings.mongo().ycsbBatchSize() == 1) {
      Endpoint e = router.byDocument(t, document);
      e.counters.sent(Op.INSERT);
      try {
        if (settings.mongo().upsert()) {
          Blocking.first(on(e, t).replaceOne(new Document(ID, key), document, UPSERT));
        } else {
          Blocking.first(on(e, t).insertOne(document));
        }
        e.counters.wrote(1);
        return Status.OK;
      } catch (MongoException ex) {
        e.counters.failed();
        failed("insert of " + key + " via " + e.name, ex);
        return Status.ERROR;
      }
    }
    List<Document> batch = ycsbBuffers.computeIfAbsent(table, n -> new InsertBuffer(settings.mongo().ycsbBatchSize()))
        .add(document);
    if (batch == null) {
      return Status.BATCHED_OK;
    }
    return writeYcsbBatch(t, batch) ? Status.OK : Status.ERROR;
  }

  private boolean writeYcsbBatch(Router.Table t, List<Document> batch) {
    if (!settings.mongo().upsert()) {
      return insertRouted(t, batch, Op.INSERT);
    }
    Map<Endpoint, List<WriteModel<Document>>> parts = new LinkedHashMap<>();
    for (Document d : batch) {
      parts.computeIfAbsent(router.byDocument(t, d), e -> new ArrayList<>())
          .add(new ReplaceOneModel<>(new Document(ID, d.get(ID)), d, UPSERT));
    }
    List<Endpoint> endpoints = new ArrayList<>(parts.keySet());
    List<Publisher<?>> writes = new ArrayList<>();
    for (Endpoint e : endpoints) {
      e.counters.sent(Op.INSERT);
      writes.add(on(e, t).bulkWrite(parts.get(e)));
    }
    return settled(endpoints, writes, parts, "bulk upsert of records into " + t.namespace);
  }

  /**
   * Inserts a batch split by the shard that owns each document, every part sent at once to its router
   * ({@code insertMany(ordered=false)}); true when every part was written.
   */
  private boolean insertRouted(Router.Table t, List<Document> batch, Op op) {
    Map<Endpoint, List<Document>> parts = new LinkedHashMap<>();
    for (Document d : batch) {
      parts.computeIfAbsent(router.byDocument(t, d), e -> new ArrayList<>(batch.size())).add(d);
    }
    List<Endpoint> endpoints = new ArrayList<>(parts.keySet());
    List<Publisher<?>> writes = new ArrayList<>(endpoints.size());
    for (Endpoint e : endpoints) {
      e.counters.sent(op);
      writes.add(on(e, t).insertMany(parts.get(e), UNORDERED));
    }
    return settled(endpoints, writes, parts, "insertMany into " + t.namespace);
  }

  private static boolean settled(List<Endpoint> endpoints, List<Publisher<?>> writes, Map<Endpoint, ? extends List<?>> parts,
      String what) {
    List<Object> outcomes = Blocking.settle(writes);
    boolean ok = true;
    for (int i = 0; i < outcomes.size(); i++) {
      Endpoint e = endpoints.get(i);
      int n = parts.get(e).size();
      Object outcome = outcomes.get(i);
      if (outcome instanceof MongoBulkWriteException bulk) {
        e.counters.failed();
        e.counters.wrote(n - bulk.getWriteErrors().size());
        failed(what + " via " + e.name + " (" + bulk.getWriteErrors().size() + " of " + n + " failed, first: "
            + bulk.getWriteErrors().get(0).getMessage() + ")", null);
        ok = false;
      } else if (outcome instanceof Exception ex) {
        e.counters.failed();
        failed(what + " of " + n + " documents via " + e.name, ex);
        ok = false;
      } else if (outcome instanceof Error err) {
        throw err;
      } else {
        e.counters.wrote(n);
      }
    }
    return ok;
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    Router.Table t = table(table);
    Endpoint e = byId(t, key, Op.READ);
    try {
      FindPublisher<Document> find = on(e, t).find(new Document(ID, key)).limit(1);
      if (fields != null) {
        find.projection(YcsbDocuments.projection(fields));
      }
      Document found = Blocking.first(find.first());
      if (found == null) {
        return Status.NOT_FOUND;
      }
      YcsbDocuments.fill(result, found);
      return Status.OK;
    } catch (MongoException ex) {
      e.counters.failed();
      failed("read of " + key + " via " + e.name, ex);
      return Status.ERROR;
    }
  }

  @Override
  public Status scan(String table, String startKey, int recordCount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    Router.Table t = table(table);
    Endpoint e = router.keyless();
    e.counters.sent(Op.SCAN);
    try {
      FindPublisher<Document> find = on(e, t).find(new Document(ID, new Document("$gte", startKey)))
          .sort(new Document(ID, 1)).limit(recordCount).batchSize(Math.max(recordCount, 2));
      if (fields != null) {
        find.projection(YcsbDocuments.projection(fields));
      }
      result.ensureCapacity(recordCount);
      Blocking.each(find, d -> {
        HashMap<String, ByteIterator> row = new HashMap<>();
        YcsbDocuments.fill(row, d);
        result.add(row);
      });
      return result.isEmpty() ? Status.NOT_FOUND : Status.OK;
    } catch (MongoException ex) {
      e.counters.failed();
      failed("scan from " + startKey, ex);
      return Status.ERROR;
    }
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    Document set = new Document();
    for (Map.Entry<String, ByteIterator> field : values.entrySet()) {
      set.append(field.getKey(), new Binary(field.getValue().toArray()));
    }
    Router.Table t = table(table);
    Endpoint e = byId(t, key, Op.UPDATE);
    try {
      UpdateResult updated = Blocking.first(on(e, t).updateOne(new Document(ID, key), new Document("$set", set)));
      return updated.wasAcknowledged() && updated.getMatchedCount() == 0 ? Status.NOT_FOUND : Status.OK;
    } catch (MongoException ex) {
      e.counters.failed();
      failed("update of " + key + " via " + e.name, ex);
      return Status.ERROR;
    }
  }

  @Override
  public Status delete(String table, String key) {
    Router.Table t = table(table);
    Endpoint e = byId(t, key, Op.DELETE);
    try {
      DeleteResult deleted = Blocking.first(on(e, t).deleteOne(new Document(ID, key)));
      return deleted.wasAcknowledged() && deleted.getDeletedCount() == 0 ? Status.NOT_FOUND : Status.OK;
    } catch (MongoException ex) {
      e.counters.failed();
      failed("delete of " + key + " via " + e.name, ex);
      return Status.ERROR;
    }
  }



  // ---- the geo contract ----

  @Override
  public Status insertRestaurant(Restaurant restaurant) {
    if (checked(false) != null) {
      return Status.ERROR;
    }
    List<Document> batch = geoBuffer.add(cellKey.document(restaurant));
    if (batch == null) {
      return Status.BATCHED_OK;
    }
    return insertRouted(geoTable, batch, Op.GEO_INSERT) ? Status.OK : Status.ERROR;
  }

  @Override
  public Status near(GeoQuery query, List<GeoHit> hits) {
    hits.clear();
    if (checked(true) != null) {
      return Status.ERROR;
    }
    NearQuery near = cellKey.near(query);
    Endpoint e = router.keyless();
    e.counters.sent(Op.GEO_NEAR);
    FindPublisher<Document> find = on(e, geoTable).find(near.filter()).limit(near.limit());
    if (near.skip() > 0) {
      find.skip(near.skip());
    }
    try {
      Blocking.each(find, d -> {
        Restaurant r = RestaurantDocuments.fromDocument(d);
        hits.add(new GeoHit(r, Sphere.distanceMeters(query.longitude(), query.latitude(), r.longitude(), r.latitude())));
      });
    } catch (MongoException | IllegalArgumentException ex) {
      e.counters.failed();
      failed("GEO near query", ex);
      hits.clear();
      return Status.ERROR;
    }
    hits.sort(NearQuery.NEAREST_FIRST);
    return Status.OK;
  }

  /** The geo collection's checks (binding-sync's), once per router; this thread keeps the outcome. */
  private String checked(boolean forQueries) {
    String mine = forQueries ? queryCheck : loadCheck;
    if (mine == null) {
      String what = settings.mongo().namespace() + "|" + settings.mongo().shardKey() + "|" + (forQueries ? "queries" : "load");
      mine = router.checkOnce(what, () -> {
        try {
          String problem = CollectionChecks.problem(router.control.client(), router.control.facts(), settings.mongo(),
              forQueries);
          if (problem != null) {
            LOG.error("{} Every {} of this command fails at once.", Secrets.maskText(problem), forQueries ? "query" : "insert");
          }
          return problem == null ? null : Secrets.maskText(problem);
        } catch (MongoException e) {
          LOG.warn("Could not check collection {} before the first {}; going on: {}", settings.mongo().namespace(),
              forQueries ? "query" : "insert", Secrets.maskText(Failures.brief(e)));
          return null;
        }
      });
      if (forQueries) {
        queryCheck = mine;
      } else {
        loadCheck = mine;
      }
    }
    return mine.isEmpty() ? null : mine;
  }

  // ---- the last-location contract: this thread's operations object ----

  @Override
  public LastLocationContract lastLocation() {
    return lastLocation;
  }

  // ---- preparation and topology: binding-sync's, then the routing ----

  private MongoGeoBinding delegate() throws DBException {
    if (delegate == null) {
      MongoGeoBinding d = new MongoGeoBinding();
      d.setProperties(getProperties());
      d.init();
      delegate = d;
    }
    return delegate;
  }

  /** binding-sync's preparation (collections, sharding, indexes), then the routing tables read again. */
  @Override
  public void prepare(Stage stage, Steps steps) throws DBException {
    delegate().prepare(stage, steps);
    router.refreshAll("onDemand");
  }

  /**
   * binding-sync's description of the deployment, with {@code routing}: the mode, each endpoint's
   * requests (by kind), failures, documents written and driver commands, the fallbacks to the default
   * router by reason, the table refreshes, and each table's version and chunks per shard.
   * {@code driverCommands} adds every endpoint's commands to the control plane's.
   */
  @Override
  public Map<String, Object> topology() throws DBException {
    Map<String, Object> out = new LinkedHashMap<>(delegate().topology());
    Map<String, Object> routing = router.describe();
    out.put("routing", routing);
    Map<String, Object> commands = new java.util.TreeMap<>();
    Object control = out.get("driverCommands");
    if (control instanceof Map<?, ?> m) {
      m.forEach((k, v) -> commands.put(String.valueOf(k), v));
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> endpoints = (Map<String, Object>) routing.get("endpoints");
    for (Object ep : endpoints.values()) {
      @SuppressWarnings("unchecked")
      Map<String, Object> driver = (Map<String, Object>) ((Map<String, Object>) ep).get("driverCommands");
      driver.forEach((k, v) -> commands.merge(k, v, MongoAsyncBinding::addCounts));
    }
    out.put("driverCommands", commands);
    return out;
  }

  @SuppressWarnings("unchecked")
  private static Object addCounts(Object a, Object b) {
    Map<String, Object> x = (Map<String, Object>) a;
    Map<String, Object> y = (Map<String, Object>) b;
    long nx = ((Number) x.get("count")).longValue();
    long ny = ((Number) y.get("count")).longValue();
    Map<String, Object> sum = new LinkedHashMap<>();
    sum.put("count", nx + ny);
    sum.put("failed", ((Number) x.get("failed")).longValue() + ((Number) y.get("failed")).longValue());
    long mean = nx + ny == 0 ? 0 : (((Number) x.get("meanMicros")).longValue() * nx
        + ((Number) y.get("meanMicros")).longValue() * ny) / (nx + ny);
    sum.put("meanMicros", mean);
    return sum;
  }

  /** The settings in use (after {@link #init()}). */
  AsyncSettings settings() {
    return settings;
  }

  /** The shared router (after {@link #init()}). */
  Router router() {
    return router;
  }
}
