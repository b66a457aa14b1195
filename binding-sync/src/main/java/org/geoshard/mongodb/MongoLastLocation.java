package org.geoshard.mongodb;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoBulkWriteException;
import com.mongodb.MongoException;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoCursor;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.InsertManyOptions;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.UpdateOptions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.bson.Document;
import org.geoshard.lastlocation.contract.LastLocationContract;
import org.geoshard.lastlocation.contract.LocationEvent;
import site.ycsb.Status;

/**
 * The last-location contract on MongoDB for one client thread: History appends buffered per History
 * collection (one per time split) and written with unordered {@code insertMany}; the conditional
 * LastKnownLocation upsert; the reads. Range queries over a split History read every collection the
 * range touches and merge the answers by time.
 */
final class MongoLastLocation implements LastLocationContract {
  private static final InsertManyOptions UNORDERED = new InsertManyOptions().ordered(false);
  private static final UpdateOptions UPSERT = new UpdateOptions().upsert(true);

  private final MongoDatabase database;
  private final MongoLastLocationSettings settings;
  private final BiConsumer<String, Exception> failed;
  private final MongoCollection<Document> lkl;
  private final Map<String, MongoCollection<Document>> histories = new HashMap<>();
  private final Map<String, List<Document>> buffers = new HashMap<>();
  private int buffered;

  MongoLastLocation(MongoDatabase database, MongoLastLocationSettings settings, BiConsumer<String, Exception> failed) {
    this.database = database;
    this.settings = settings;
    this.failed = failed;
    this.lkl = database.getCollection(settings.lkl());
  }

  private MongoCollection<Document> history(String name) {
    return histories.computeIfAbsent(name, database::getCollection);
  }

  @Override
  public Status appendHistory(LocationEvent event) {
    buffers.computeIfAbsent(settings.historyFor(event.timestampMs()), name -> new ArrayList<>())
        .add(LastLocationDocuments.history(event));
    buffered++;
    return buffered >= settings.batchSize() ? flush() : Status.BATCHED_OK;
  }

  /** Writes every buffered event; OK when all were written. */
  Status flush() {
    boolean ok = true;
    for (Map.Entry<String, List<Document>> buffer : buffers.entrySet()) {
      if (buffer.getValue().isEmpty()) {
        continue;
      }
      try {
        history(buffer.getKey()).insertMany(buffer.getValue(), UNORDERED);
      } catch (MongoBulkWriteException e) {
        failed.accept(e.getWriteErrors().size() + " of " + buffer.getValue().size() + " events into " + buffer.getKey(), e);
        ok = false;
      } catch (MongoException e) {
        failed.accept("insertMany of " + buffer.getValue().size() + " events into " + buffer.getKey(), e);
        ok = false;
      }
      buffer.getValue().clear();
    }
    buffered = 0;
    return ok ? Status.OK : Status.ERROR;
  }

  @Override
  public Status upsertLastLocation(LocationEvent event) {
    try {
      lkl.updateOne(LastLocationDocuments.olderThan(event), LastLocationDocuments.replaceWith(event), UPSERT);
      return Status.OK;
    } catch (MongoWriteException e) {
      if (e.getError().getCategory() == ErrorCategory.DUPLICATE_KEY) {
        return LastLocationContract.STALE;
      }
      failed.accept("upsert of " + event.userId(), e);
      return Status.ERROR;
    } catch (MongoException e) {
      failed.accept("upsert of " + event.userId(), e);
      return Status.ERROR;
    }
  }

  @Override
  public Status readLastLocation(String userId, List<LocationEvent> out) {
    out.clear();
    try {
      Document found = lkl.find(new Document("_id", userId)).limit(1).first();
      if (found != null) {
        out.add(LastLocationDocuments.fromLastKnown(found));
      }
      return Status.OK;
    } catch (MongoException e) {
      failed.accept("read of " + userId, e);
      return Status.ERROR;
    }
  }

  @Override
  public Status historyRange(String userId, long fromMs, long toMs, List<LocationEvent> out) {
    out.clear();
    try {
      // The splits are in time order and each answer is sorted: appending them merges them.
      for (String name : settings.historiesBetween(fromMs, toMs)) {
        try (MongoCursor<Document> cursor = history(name).find(LastLocationDocuments.range(userId, fromMs, toMs))
            .sort(Sorts.ascending(LastLocationDocuments.TIMESTAMP)).iterator()) {
          while (cursor.hasNext()) {
            out.add(LastLocationDocuments.fromHistory(cursor.next()));
          }
        }
      }
      return Status.OK;
    } catch (MongoException e) {
      failed.accept("history of " + userId, e);
      return Status.ERROR;
    }
  }

  @Override
  public Status usersNear(double longitude, double latitude, double radiusMeters, int limit, List<LocationEvent> out) {
    out.clear();
    try (MongoCursor<Document> cursor = lkl.find(LastLocationDocuments.near(longitude, latitude,
        radiusMeters * NearQuery.SERVER_METERS_PER_WORKLOAD_METER)).limit(limit).iterator()) {
      while (cursor.hasNext()) {
        out.add(LastLocationDocuments.fromLastKnown(cursor.next()));
      }
      return Status.OK;
    } catch (MongoException e) {
      failed.accept("near query on " + settings.lkl(), e);
      return Status.ERROR;
    }
  }
}
