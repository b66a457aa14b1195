package org.geoshard.mongodb;

import com.mongodb.MongoException;
import com.mongodb.client.result.DeleteResult;
import com.mongodb.client.result.UpdateResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.Vector;
import java.util.function.Supplier;
import org.bson.Document;
import org.bson.types.Binary;
import org.geoshard.geo.contract.GeoContract;
import org.geoshard.geo.contract.GeoHit;
import org.geoshard.geo.contract.GeoQuery;
import org.geoshard.geo.contract.Restaurant;
import org.geoshard.geo.dataset.Sphere;
import org.geoshard.harness.api.BatchOutcomes;
import org.geoshard.harness.api.ExplainsOperations.QueryExplain;
import org.geoshard.harness.api.Secrets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * The operations layer both MongoDB bindings share: what each request of YCSB's operations, the geo
 * contract and the last-location contract ({@link LastLocationOperations}) means, sent over a
 * {@link RequestPath} (the sync driver, or the reactive driver with routing). Here, once: the mapping
 * of every failure to an error status of its operation (nothing escapes to the harness), the insert
 * buffers and each batch's per-record outcome ({@link BatchOutcomes}), the collection checks made
 * before the first insert or query, and the final flush.
 *
 * <p>One per binding instance, so per client thread; not thread-safe.
 */
public final class MongoOperations implements GeoContract {
  /** The harness's name of a load's insert (YCSB's and the geo workload's). */
  static final String INSERT = "INSERT";
  private static final Logger LOG = LoggerFactory.getLogger(MongoOperations.class);

  private final MongoSettings settings;
  private final CellKeyPlan cellKey;
  private final RequestPath path;
  private final SharedClients.Entry shared;
  private final FailureLog failures;
  private final InsertBuffer geoBuffer;
  private final Map<String, InsertBuffer> ycsbBuffers = new LinkedHashMap<>();
  private final LastLocationOperations lastLocation;
  private final Outcomes outcomes;
  /**
   * The last query this thread sent and its collection, for {@link #explainLast()}; null before the first.
   * Kept as sent, not as a command: the command is built only for the few queries that are explained.
   */
  private RequestPath.Find lastFind;
  private String lastCollection;
  /** This thread's copy of the shared checks' outcome: null until checked, "" when fine (no lock per operation). */
  private String loadCheck;
  private String queryCheck;

  /**
   * @param shared the sync client of {@code mongodb.url}, on which the collection checks run (and are
   *     remembered for every thread)
   */
  public MongoOperations(MongoSettings settings, CellKeyPlan cellKey, MongoLastLocationSettings llSettings,
      RequestPath path, SharedClients.Entry shared, FailureLog failures) {
    this.settings = settings;
    this.cellKey = cellKey;
    this.path = path;
    this.shared = shared;
    this.failures = failures;
    this.outcomes = new Outcomes(failures);
    this.geoBuffer = new InsertBuffer(settings.writes().geoBatchSize());
    this.lastLocation = new LastLocationOperations(path, llSettings, outcomes);
  }

  /** Where each batch's settled outcome goes (the harness's listener); null: nowhere. */
  public void batchOutcomeListener(BatchOutcomes.Listener listener) {
    outcomes.listener = listener;
  }

  public LastLocationOperations lastLocation() {
    return lastLocation;
  }

  /**
   * The checks to make before any thread measures: in a run of the geo workload, the collection must
   * be ready for queries.
   *
   * @throws MongoStartException one sentence saying what to do
   */
  public void checkBeforeStart(boolean geoRun) throws MongoStartException {
    if (geoRun) {
      String problem = checked(true);
      if (problem != null) {
        throw new MongoStartException(problem);
      }
    }
  }

  /** Writes what this thread still buffers; the failures, one phrase each (empty when all was written). */
  public List<String> flush() {
    List<String> failed = new ArrayList<>();
    geoBuffer.drain(batch -> {
      if (writeBatch(Op.GEO_INSERT, settings.collection(), batch, false, -1) != Status.OK) {
        failed.add(batch.size() + " restaurants");
      }
    });
    if (lastLocation.flush((String) null) != Status.OK) {
      failed.add("location events");
    }
    for (Map.Entry<String, InsertBuffer> e : ycsbBuffers.entrySet()) {
      e.getValue().drain(batch -> {
        if (writeBatch(Op.INSERT, e.getKey(), batch, settings.writes().upsert(), -1) != Status.OK) {
          failed.add(batch.size() + " records of " + e.getKey());
        }
      });
    }
    return failed;
  }

  /**
   * Writes a full batch (or the leftovers at the end); the settled outcome of every buffered record goes
   * to the listener, and the status returned is that of the record whose call filled the batch
   * ({@code flusher}, its index; -1 at the final flush: OK when all were written).
   */
  private Status writeBatch(Op op, String collection, List<Document> batch, boolean upsert, int flusher) {
    RequestPath.Written written = path.writeMany(op, collection, batch, upsert);
    return outcomes.settle(INSERT, written, flusher);
  }

  // ---- the geo contract ----

  @Override
  public Status insertRestaurant(Restaurant restaurant) {
    if (checked(false) != null) {
      return Status.ERROR;
    }
    List<Document> batch;
    try {
      batch = geoBuffer.add(cellKey.document(restaurant));
    } catch (RuntimeException e) {
      failures.failed("restaurant " + restaurant.id(), e);
      return Status.ERROR;
    }
    return batch == null ? Status.BATCHED_OK : writeBatch(Op.GEO_INSERT, settings.collection(), batch, false, batch.size() - 1);
  }

  @Override
  public Status near(GeoQuery query, List<GeoHit> hits) {
    hits.clear();
    if (checked(true) != null) {
      return Status.ERROR;
    }
    Status status = outcomes.attempt("GEO near query", () -> {
      NearQuery near = cellKey.near(query, settings.queries().maxDistance());
      RequestPath.Find find = near.toFind();
      sent(settings.collection(), find);
      path.find(Op.GEO_NEAR, settings.collection(), find, d -> {
        // every result is read, to the end of the cursor
        Restaurant r = RestaurantDocuments.fromDocument(d);
        hits.add(new GeoHit(r, Sphere.distanceMeters(query.longitude(), query.latitude(), r.longitude(), r.latitude())));
      });
      // The server orders by its own distance; ties (and float noise between the two) come in any order.
      hits.sort(NearQuery.NEAREST_FIRST);
      return Status.OK;
    });
    if (status != Status.OK) {
      hits.clear();
    }
    return status;
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
    String key = settings.namespace() + "|" + settings.preparation().shardKey() + "|" + (forQueries ? "queries" : "load");
    synchronized (shared.checks) {
      String known = shared.checks.get(key);
      if (known == null) {
        String problem;
        try {
          problem = CollectionChecks.problem(shared.client, shared.facts, settings, forQueries);
        } catch (MongoException e) {
          // Not knowing is not a failure (e.g. a user who may not read config.collections): go on, and say so.
          LOG.warn("Could not check collection {} before the first {}; going on: {}", settings.namespace(),
              forQueries ? "query" : "insert", Failures.describe(e, settings, shared.effectiveUrl,
                  shared.client.getClusterDescription()));
          problem = null;
        }
        known = problem == null ? "" : Secrets.maskText(problem);
        shared.checks.put(key, known);
        if (problem != null) {
          LOG.error("{} Every {} of this command fails at once.", known, forQueries ? "query" : "insert");
        }
      }
      return known;
    }
  }

  // ---- YCSB's operations: _id is the key, each field a binary value ----

  private static Document fields(Map<String, ByteIterator> values) {
    Document document = new Document();
    for (Map.Entry<String, ByteIterator> field : values.entrySet()) {
      document.append(field.getKey(), new Binary(field.getValue().toArray()));
    }
    return document;
  }

  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    Document document = new Document("_id", key);
    document.putAll(fields(values));
    if (settings.writes().ycsbBatchSize() == 1) {
      return outcomes.attempt("insert of ", key, () -> {
        if (settings.writes().upsert()) {
          path.upsertById(Op.INSERT, table, document);
        } else {
          path.insertOne(Op.INSERT, table, document);
        }
        return Status.OK;
      });
    }
    List<Document> batch = ycsbBuffers.computeIfAbsent(table, t -> new InsertBuffer(settings.writes().ycsbBatchSize())).add(document);
    return batch == null ? Status.BATCHED_OK : writeBatch(Op.INSERT, table, batch, settings.writes().upsert(), batch.size() - 1);
  }

  /**
   * The last query again under {@code explain} (executionStats), through the client of
   * {@code mongodb.url}: a mongos answers with the shards that took part.
   */
  public Optional<QueryExplain> explainLast() throws DBException {
    if (lastFind == null) {
      return Optional.empty();
    }
    try {
      Document answer = shared.client.getDatabase(settings.connection().database())
          .runCommand(MongoExplain.command(lastFind.toCommand(lastCollection)));
      return Optional.of(MongoExplain.parse(answer));
    } catch (MongoException | IllegalArgumentException e) {
      throw new DBException("Could not explain a " + lastCollection + " query: " + e.getMessage(), e);
    }
  }

  private void sent(String collection, RequestPath.Find find) {
    lastCollection = collection;
    lastFind = find;
  }

  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    return outcomes.attempt("read of ", key, () -> {
      RequestPath.Find find = RequestPath.Find.of(new Document("_id", key));
      sent(table, find.limit(1));  // what first() sends
      Document found = path.first(Op.READ, table, fields == null ? find : find.projection(YcsbDocuments.projection(fields)));
      if (found == null) {
        return Status.NOT_FOUND;
      }
      YcsbDocuments.fill(result, found);
      return Status.OK;
    });
  }

  public Status scan(String table, String startKey, int recordCount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    return outcomes.attempt("scan from ", startKey, () -> {
      RequestPath.Find find = RequestPath.Find.of(new Document("_id", new Document("$gte", startKey)))
          .sort(new Document("_id", 1)).limit(recordCount);
      sent(table, find);
      result.ensureCapacity(recordCount);
      path.find(Op.SCAN, table, fields == null ? find : find.projection(YcsbDocuments.projection(fields)), d -> {
        HashMap<String, ByteIterator> row = new HashMap<>();
        YcsbDocuments.fill(row, d);
        result.add(row);
      });
      // As YCSB's mongodb binding: a scan that finds nothing did not do its job.
      return result.isEmpty() ? Status.NOT_FOUND : Status.OK;
    });
  }

  public Status update(String table, String key, Map<String, ByteIterator> values) {
    return outcomes.attempt("update of ", key, () -> {
      UpdateResult updated = path.updateOne(Op.UPDATE, table, new Document("_id", key),
          new Document("$set", fields(values)), new com.mongodb.client.model.UpdateOptions());
      return updated.wasAcknowledged() && updated.getMatchedCount() == 0 ? Status.NOT_FOUND : Status.OK;
    });
  }

  public Status delete(String table, String key) {
    return outcomes.attempt("delete of ", key, () -> {
      DeleteResult deleted = path.deleteOne(Op.DELETE, table, new Document("_id", key));
      return deleted.wasAcknowledged() && deleted.getDeletedCount() == 0 ? Status.NOT_FOUND : Status.OK;
    });
  }

  /**
   * How a request's end becomes the status the harness counts, in one place for every operation. A
   * request that throws (the driver's failure, its deadline, a document that does not map, a bug) is an
   * error of its operation, logged without flooding. A batch: the record whose call wrote it gets its
   * own outcome as the call's status; every other record answered {@link Status#BATCHED_OK} when it was
   * buffered, and is counted now, through the listener, as written or failed.
   */
  static final class Outcomes {
    private final FailureLog failures;
    BatchOutcomes.Listener listener;

    Outcomes(FailureLog failures) {
      this.failures = failures;
    }

    /** Runs one request; any failure is an error of it, never an exception for the harness. */
    Status attempt(String what, Supplier<Status> request) {
      return attempt(what, "", request);
    }

    /**
     * The same, for a request on one record: the failure says {@code what + subject} ("read of user12"),
     * joined only when it failed, not on every request.
     */
    Status attempt(String what, String subject, Supplier<Status> request) {
      try {
        return request.get();
      } catch (RuntimeException e) {
        failures.failed(what + subject, e);
        return Status.ERROR;
      }
    }

    /** @param flusher index in the batch of the record whose call wrote it, or -1 (the final flush) */
    Status settle(String operation, RequestPath.Written written, int flusher) {
      if (written.failedCount() > 0) {
        failures.failed(written.what(), written.cause());
      }
      boolean flusherFailed = flusher >= 0 && written.failed().get(flusher);
      int buffered = flusher >= 0 ? written.size() - 1 : written.size();
      int failed = written.failedCount() - (flusherFailed ? 1 : 0);
      if (listener != null && buffered > 0) {
        listener.settled(operation, buffered - failed, failed);
      }
      if (flusher >= 0) {
        return flusherFailed ? Status.ERROR : Status.OK;
      }
      return written.failedCount() == 0 ? Status.OK : Status.ERROR;
    }
  }
}
