package org.geoshard.mongodb.async;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoBulkWriteException;
import com.mongodb.MongoException;
import com.mongodb.MongoWriteException;
import com.mongodb.client.model.InsertManyOptions;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.UpdateOptions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.bson.Document;
import org.geoshard.lastlocation.contract.LastLocationContract;
import org.geoshard.lastlocation.contract.LocationEvent;
import org.geoshard.mongodb.LastLocationDocuments;
import org.geoshard.mongodb.MongoLastLocationSettings;
import org.geoshard.mongodb.NearQuery;
import org.reactivestreams.Publisher;
import site.ycsb.Status;

/**
 * The last-location contract for one client thread, on the reactive driver with routing: the same
 * documents and queries as binding-sync ({@link LastLocationDocuments}, {@link MongoLastLocationSettings}).
 * History appends are buffered per History collection and each batch is split by owning shard (the
 * History key, e.g. {@code UserId:1,Timestamp:1}, is in every event); the LastKnownLocation upsert and
 * read go by user ({@code _id}); a History range goes by user when the user's chunks sit on one shard;
 * near queries go to the default router.
 */
final class AsyncLastLocation implements LastLocationContract {
  private static final InsertManyOptions UNORDERED = new InsertManyOptions().ordered(false);
  private static final UpdateOptions UPSERT = new UpdateOptions().upsert(true);

  private final Router router;
  private final String database;
  private final MongoLastLocationSettings settings;
  private final BiConsumer<String, Exception> failed;
  private final Router.Table lkl;
  private final Map<String, Router.Table> histories = new HashMap<>();
  private final Map<String, List<Document>> buffers = new LinkedHashMap<>();
  private int buffered;

  AsyncLastLocation(Router router, String database, MongoLastLocationSettings settings, BiConsumer<String, Exception> failed) {
    this.router = router;
    this.database = database;
    this.settings = settings;
    this.failed = failed;
    this.lkl = router.table(database + "." + settings.lkl());
  }

  private Router.Table history(String name) {
    return histories.computeIfAbsent(name, n -> router.table(database + "." + n));
  }

  @Override
  public Status appendHistory(LocationEvent event) {
    buffers.computeIfAbsent(settings.historyFor(event.timestampMs()), name -> new ArrayList<>())
        .add(LastLocationDocuments.history(event));
    buffered++;
    return buffered >= settings.batchSize() ? flush() : Status.BATCHED_OK;
  }

  /** Writes every buffered event, each collection's batch split by owner and sent at once; OK when all were written. */
  Status flush() {
    List<Endpoint> endpoints = new ArrayList<>();
    List<List<Document>> parts = new ArrayList<>();
    List<String> names = new ArrayList<>();
    List<Publisher<?>> writes = new ArrayList<>();
    for (Map.Entry<String, List<Document>> buffer : buffers.entrySet()) {
      if (buffer.getValue().isEmpty()) {
        continue;
      }
      Router.Table table = history(buffer.getKey());
      Map<Endpoint, List<Document>> byOwner = new LinkedHashMap<>();
      for (Document d : buffer.getValue()) {
        byOwner.computeIfAbsent(router.byDocument(table, d), e -> new ArrayList<>()).add(d);
      }
      for (Map.Entry<Endpoint, List<Document>> part : byOwner.entrySet()) {
        Endpoint e = part.getKey();
        e.counters.sent(Op.HISTORY_INSERT);
        endpoints.add(e);
        parts.add(part.getValue());
        names.add(buffer.getKey());
        writes.add(e.collection(buffer.getKey()).insertMany(part.getValue(), UNORDERED));
      }
    }
    boolean ok = true;
    List<Object> outcomes = Blocking.settle(writes);
    for (int i = 0; i < outcomes.size(); i++) {
      Endpoint e = endpoints.get(i);
      int n = parts.get(i).size();
      Object outcome = outcomes.get(i);
      if (outcome instanceof MongoBulkWriteException bulk) {
        e.counters.failed();
        e.counters.wrote(n - bulk.getWriteErrors().size());
        failed.accept(bulk.getWriteErrors().size() + " of " + n + " events into " + names.get(i) + " via " + e.name, bulk);
        ok = false;
      } else if (outcome instanceof Exception ex) {
        e.counters.failed();
        failed.accept("insertMany of " + n + " events into " + names.get(i) + " via " + e.name, ex);
        ok = false;
      } else if (outcome instanceof Error err) {
        throw err;
      } else {
        e.counters.wrote(n);
      }
    }
    buffers.values().forEach(List::clear);
    buffered = 0;
    return ok ? Status.OK : Status.ERROR;
  }

  @Override
  public Status upsertLastLocation(LocationEvent event) {
    Document filter = LastLocationDocuments.olderThan(event);
    Endpoint e = router.byFilter(lkl, filter);
    e.counters.sent(Op.LKL_UPSERT);
    try {
      Blocking.first(e.collection(settings.lkl()).updateOne(filter, LastLocationDocuments.replaceWith(event), UPSERT));
      e.counters.wrote(1);
      return Status.OK;
    } catch (MongoWriteException ex) {
      if (ex.getError().getCategory() == ErrorCategory.DUPLICATE_KEY) {
        return LastLocationContract.STALE;
      }
      e.counters.failed();
      failed.accept("upsert of " + event.userId() + " via " + e.name, ex);
      return Status.ERROR;
    } catch (MongoException ex) {
      e.counters.failed();
      failed.accept("upsert of " + event.userId() + " via " + e.name, ex);
      return Status.ERROR;
    }
  }

  @Override
  public Status readLastLocation(String userId, List<LocationEvent> out) {
    out.clear();
    Document filter = new Document("_id", userId);
    Endpoint e = router.byFilter(lkl, filter);
    e.counters.sent(Op.LKL_READ);
    try {
      Document found = Blocking.first(e.collection(settings.lkl()).find(filter).limit(1).first());
      if (found != null) {
        out.add(LastLocationDocuments.fromLastKnown(found));
      }
      return Status.OK;
    } catch (MongoException ex) {
      e.counters.failed();
      failed.accept("read of " + userId + " via " + e.name, ex);
      return Status.ERROR;
    }
  }

  @Override
  public Status historyRange(String userId, long fromMs, long toMs, List<LocationEvent> out) {
    out.clear();
    Document filter = LastLocationDocuments.range(userId, fromMs, toMs);
    Endpoint e = null;
    try {
      // The splits are in time order and each answer is sorted: appending them merges them.
      for (String name : settings.historiesBetween(fromMs, toMs)) {
        e = router.byFilter(history(name), filter);
        e.counters.sent(Op.HISTORY_RANGE);
        Blocking.each(e.collection(name).find(filter).sort(Sorts.ascending(LastLocationDocuments.TIMESTAMP)),
            d -> out.add(LastLocationDocuments.fromHistory(d)));
      }
      return Status.OK;
    } catch (MongoException ex) {
      if (e != null) {
        e.counters.failed();
      }
      failed.accept("history of " + userId, ex);
      return Status.ERROR;
    }
  }

  @Override
  public Status usersNear(double longitude, double latitude, double radiusMeters, int limit, List<LocationEvent> out) {
    out.clear();
    Endpoint e = router.keyless();
    e.counters.sent(Op.LKL_NEAR);
    try {
      Blocking.each(e.collection(settings.lkl()).find(LastLocationDocuments.near(longitude, latitude,
          radiusMeters * NearQuery.SERVER_METERS_PER_WORKLOAD_METER)).limit(limit),
          d -> out.add(LastLocationDocuments.fromLastKnown(d)));
      return Status.OK;
    } catch (MongoException ex) {
      e.counters.failed();
      failed.accept("near query on " + settings.lkl(), ex);
      return Status.ERROR;
    }
  }
}
