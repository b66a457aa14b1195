package org.geoshard.mongodb;

import com.mongodb.MongoBulkWriteException;
import com.mongodb.MongoException;
import com.mongodb.client.FindIterable;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoCursor;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.InsertManyOptions;
import com.mongodb.client.model.ReplaceOneModel;
import com.mongodb.client.model.ReplaceOptions;
import com.mongodb.client.model.WriteModel;
import com.mongodb.client.result.DeleteResult;
import com.mongodb.client.result.UpdateResult;
import com.mongodb.event.CommandListener;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
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
import org.geoshard.lastlocation.LastLocationSettings;
import org.geoshard.lastlocation.LastLocationWorkload;
import org.geoshard.lastlocation.contract.DelegatingLastLocation;
import org.geoshard.lastlocation.contract.LastLocationContract;
import org.geoshard.lastlocation.contract.LocationEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * Binding {@code mongodb-geo}: MongoDB through the official sync driver. It serves YCSB's five
 * operations (so {@code CoreWorkload} runs unchanged: {@code _id} is the key, fields are binary), the
 * geo workload's contract (batched restaurant loads, {@code $nearSphere} queries), the preparation of a
 * scenario (collection, sharding, 2dsphere index, each step timed) and a description of the topology.
 *
 * <p>One instance per client thread (YCSB's contract); all instances of a JVM share one client per URL
 * ({@link SharedClients}). See {@code binding-sync/README.md} for the properties.
 */
public final class MongoGeoBinding extends DB implements GeoContract, DelegatingLastLocation, Preparable,
    DescribesTopology {
  private static final Logger LOG = LoggerFactory.getLogger(MongoGeoBinding.class);
  private static final InsertManyOptions UNORDERED = new InsertManyOptions().ordered(false);
  private static final ReplaceOptions UPSERT = new ReplaceOptions().upsert(true);
  private static final FailureLog FAILURE_LOG = new FailureLog(LOG);

  private final List<CommandListener> extraListeners;
  private MongoSettings settings;
  private CellKeyPlan cellKey;
  private SharedClients.Lease lease;
  private MongoDatabase database;
  private MongoCollection<Document> geo;
  private InsertBuffer geoBuffer;
  private MongoLastLocationSettings llSettings;
  private MongoLastLocation lastLocation;
  private final Map<String, InsertBuffer> ycsbBuffers = new LinkedHashMap<>();
  private final Map<String, MongoCollection<Document>> tables = new HashMap<>();
  /** This thread's copy of the shared checks' outcome: null until checked, "" when fine (no lock per operation). */
  private String loadCheck;
  private String queryCheck;

  /** As the harness makes it, one per client thread. */
  public MongoGeoBinding() {
    this(List.of());
  }

  /** With listeners on every command of its client (tests observe what goes on the wire). */
  MongoGeoBinding(List<CommandListener> extraListeners) {
    this.extraListeners = List.copyOf(extraListeners);
  }

  @Override
  public void init() throws DBException {
    try {
      settings = MongoSettings.fromProperties(getProperties(), extraListeners);
      cellKey = CellKeyPlan.of(settings.shardKey(), getProperties());
      llSettings = MongoLastLocationSettings.fromProperties(getProperties());
    } catch (ConfigException e) {
      throw new DBException(e.getMessage());
    }
    lease = SharedClients.acquire(settings);
    database = lease.client().getDatabase(settings.database());
    if (settings.writeConcern() != null) {
      database = database.withWriteConcern(settings.writeConcern());
    }
    if (settings.readPreference() != null) {
      database = database.withReadPreference(settings.readPreference());
    }
    geo = database.getCollection(settings.collection());
    geoBuffer = new InsertBuffer(settings.geoBatchSize());
    lastLocation = new MongoLastLocation(database, llSettings, MongoGeoBinding::failed);
    if (Boolean.TRUE.equals(settings.doTransactions())
        && GeoWorkload.class.getName().equals(getProperties().getProperty("workload"))) {
      // A run of the geo workload, known as such: check the collection now, before any thread starts measuring.
      String problem = checked(true);
      if (problem != null) {
        release();
        throw new MongoStartException(problem);
      }
    }
  }

  /** Writes what this thread still buffers, then lets the shared client go. */
  @Override
  public void cleanup() throws DBException {
    if (lease == null) {
      return;
    }
    List<String> failed = new ArrayList<>();
    try {
      geoBuffer.drain(batch -> {
        if (!insertBatch(geo, batch)) {
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

  private void release() {
    if (lease != null) {
      lease.close();
      lease = null;
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
    return insertBatch(geo, batch) ? Status.OK : Status.ERROR;
  }

  @Override
  public Status near(GeoQuery query, List<GeoHit> hits) {
    hits.clear();
    if (checked(true) != null) {
      return Status.ERROR;
    }
    NearQuery near = cellKey.near(query);
    FindIterable<Document> find = geo.find(near.filter()).limit(near.limit());
    if (near.skip() > 0) {
      find.skip(near.skip());
    }
    try (MongoCursor<Document> cursor = find.iterator()) {
      while (cursor.hasNext()) {  // every result is read, to the end of the cursor
        Restaurant r = RestaurantDocuments.fromDocument(cursor.next());
        hits.add(new GeoHit(r, Sphere.distanceMeters(query.longitude(), query.latitude(), r.longitude(), r.latitude())));
      }
    } catch (MongoException | IllegalArgumentException e) {
      failed("GEO near query", e);
      hits.clear();
      return Status.ERROR;
    }
    // The server orders by its own distance; ties (and float noise between the two) come in any order.
    hits.sort(NearQuery.NEAREST_FIRST);
    return Status.OK;
  }

  /**
   * The collection checks for the geo workload, made once per shared client at the first insert of a
   * load (sharding) or the first query of a run (sharding and index): null when fine, else the
   * problem, logged once. Each instance keeps the outcome, so operations take no lock for it.
   */
  private String checked(boolean forQueries) {
    String mine = forQueries ? queryCheck : loadCheck;
    if (mine == null) {
      mine = sharedCheck(forQueries);
      if (forQueries) {
        queryCheck = mine;
      } else {
        loadCheck = mine;
      }
    }
    return mine.isEmpty() ? null : mine;
  }

  /** The check made once per shared client: "" when fine, else the problem. */
  private String sharedCheck(boolean forQueries) {
    SharedClients.Entry entry = lease.entry();
    String key = settings.namespace() + "|" + settings.shardKey() + "|" + (forQueries ? "queries" : "load");
    synchronized (entry.checks) {
      String known = entry.checks.get(key);
      if (known == null) {
        String problem;
        try {
          problem = CollectionChecks.problem(entry.client, entry.facts, settings, forQueries);
        } catch (MongoException e) {
          // Not knowing is not a failure (e.g. a user who may not read config.collections): go on, and say so.
          LOG.warn("Could not check collection {} before the first {}; going on: {}", settings.namespace(),
              forQueries ? "query" : "insert", Failures.describe(e, settings, entry.effectiveUrl,
                  entry.client.getClusterDescription()));
          problem = null;
        }
        known = problem == null ? "" : Secrets.maskText(problem);
        entry.checks.put(key, known);
        if (problem != null) {
          LOG.error("{} Every {} of this command fails at once.", known, forQueries ? "query" : "insert");
        }
      }
      return known;
    }
  }

  private boolean insertBatch(MongoCollection<Document> collection, List<Document> batch) {
    try {
      collection.insertMany(batch, UNORDERED);
      return true;
    } catch (MongoBulkWriteException e) {
      failed("insertMany of " + batch.size() + " documents into " + collection.getNamespace() + " ("
          + e.getWriteErrors().size() + " failed, first: " + e.getWriteErrors().get(0).getMessage() + ")", null);
      return false;
    } catch (MongoException e) {
      failed("insertMany of " + batch.size() + " documents into " + collection.getNamespace(), e);
      return false;
    }
  }

  private static void failed(String what, Exception e) {
    FAILURE_LOG.failed(what, e);
  }

  // ---- preparation and topology ----

  /** Prepares the collections of the workload being loaded: the location stream's, or the restaurants'. */
  @Override
  public void prepare(Stage stage, Steps steps) throws DBException {
    ClusterPreparation cluster = new ClusterPreparation(lease.client(), lease.facts(), settings);
    if (LastLocationWorkload.class.getName().equals(getProperties().getProperty("workload"))) {
      long clockStart;
      try {
        clockStart = LastLocationSettings.fromProperties(getProperties()).clockStartMs();
      } catch (ConfigException e) {
        throw new DBException(e.getMessage());
      }
      new LastLocationPreparation(cluster, database, llSettings, clockStart, settings.drop()).prepare(stage, steps);
    } else {
      cluster.prepare(stage, steps);
      if (stage == Stage.BEFORE_LOAD && cellKey.active()) {
        steps.step("place cell ranges",
            () -> cellKey.place(lease.client(), lease.facts(), settings.namespace(), getProperties()));
      }
    }
  }

  // ---- the last-location contract: this thread's operations object ----

  @Override
  public LastLocationContract lastLocation() {
    return lastLocation;
  }

  @Override
  public Map<String, Object> topology() throws DBException {
    try {
      return TopologyReader.describe(lease.client(), lease.facts(), settings, SharedClients.counters(settings));
    } catch (MongoException e) {
      throw new DBException(Failures.describe(e, settings, lease.entry().effectiveUrl,
          lease.client().getClusterDescription()));
    }
  }

  // ---- YCSB's operations: _id is the key, each field a binary value ----

  private MongoCollection<Document> table(String name) {
    return tables.computeIfAbsent(name, database::getCollection);
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    Document document = new Document("_id", key);
    for (Map.Entry<String, ByteIterator> field : values.entrySet()) {
      document.append(field.getKey(), new Binary(field.getValue().toArray()));
    }
    try {
      if (settings.ycsbBatchSize() == 1) {
        if (settings.upsert()) {
          table(table).replaceOne(new Document("_id", key), document, UPSERT);
        } else {
          table(table).insertOne(document);
        }
        return Status.OK;
      }
    } catch (MongoException e) {
      failed("insert of " + key, e);
      return Status.ERROR;
    }
    List<Document> batch = ycsbBuffers.computeIfAbsent(table, t -> new InsertBuffer(settings.ycsbBatchSize())).add(document);
    if (batch == null) {
      return Status.BATCHED_OK;
    }
    return writeYcsbBatch(table(table), batch) ? Status.OK : Status.ERROR;
  }

  private boolean writeYcsbBatch(MongoCollection<Document> collection, List<Document> batch) {
    if (!settings.upsert()) {
      return insertBatch(collection, batch);
    }
    List<WriteModel<Document>> writes = new ArrayList<>(batch.size());
    for (Document d : batch) {
      writes.add(new ReplaceOneModel<>(new Document("_id", d.get("_id")), d, UPSERT));
    }
    try {
      collection.bulkWrite(writes);
      return true;
    } catch (MongoException e) {
      failed("bulk upsert of " + batch.size() + " records", e);
      return false;
    }
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    try {
      FindIterable<Document> find = table(table).find(new Document("_id", key)).limit(1);
      if (fields != null) {
        find.projection(YcsbDocuments.projection(fields));
      }
      Document found = find.first();
      if (found == null) {
        return Status.NOT_FOUND;
      }
      YcsbDocuments.fill(result, found);
      return Status.OK;
    } catch (MongoException e) {
      failed("read of " + key, e);
      return Status.ERROR;
    }
  }

  @Override
  public Status scan(String table, String startKey, int recordCount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    try {
      FindIterable<Document> find = table(table).find(new Document("_id", new Document("$gte", startKey)))
          .sort(new Document("_id", 1)).limit(recordCount);
      if (fields != null) {
        find.projection(YcsbDocuments.projection(fields));
      }
      result.ensureCapacity(recordCount);
      try (MongoCursor<Document> cursor = find.iterator()) {
        while (cursor.hasNext()) {
          HashMap<String, ByteIterator> row = new HashMap<>();
          YcsbDocuments.fill(row, cursor.next());
          result.add(row);
        }
      }
      // As YCSB's mongodb binding: a scan that finds nothing did not do its job.
      return result.isEmpty() ? Status.NOT_FOUND : Status.OK;
    } catch (MongoException e) {
      failed("scan from " + startKey, e);
      return Status.ERROR;
    }
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    Document set = new Document();
    for (Map.Entry<String, ByteIterator> field : values.entrySet()) {
      set.append(field.getKey(), new Binary(field.getValue().toArray()));
    }
    try {
      UpdateResult updated = table(table).updateOne(new Document("_id", key), new Document("$set", set));
      return updated.wasAcknowledged() && updated.getMatchedCount() == 0 ? Status.NOT_FOUND : Status.OK;
    } catch (MongoException e) {
      failed("update of " + key, e);
      return Status.ERROR;
    }
  }

  @Override
  public Status delete(String table, String key) {
    try {
      DeleteResult deleted = table(table).deleteOne(new Document("_id", key));
      return deleted.wasAcknowledged() && deleted.getDeletedCount() == 0 ? Status.NOT_FOUND : Status.OK;
    } catch (MongoException e) {
      failed("delete of " + key, e);
      return Status.ERROR;
    }
  }



  /** The settings in use (after {@link #init()}). */
  MongoSettings settings() {
    return settings;
  }

  /** The geo collection with the binding's write concern and read preference (after {@link #init()}). */
  MongoCollection<Document> geoCollection() {
    return geo;
  }
}
