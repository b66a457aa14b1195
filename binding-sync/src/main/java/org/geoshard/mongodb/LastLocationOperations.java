package org.geoshard.mongodb;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoWriteException;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.model.UpdateOptions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bson.Document;
import org.geoshard.lastlocation.contract.LastLocationContract;
import org.geoshard.lastlocation.contract.LocationEvent;
import site.ycsb.Status;

/**
 * The last-location contract on MongoDB for one client thread, over either request path: History
 * appends buffered per History collection (one per time split) and written with unordered
 * {@code insertMany}; the conditional LastKnownLocation upsert; the reads. Range queries over a split
 * History read every collection the range touches and merge the answers by time.
 */
public final class LastLocationOperations implements LastLocationContract {
  static final String HISTORY_INSERT = "HISTORY_INSERT";
  private static final UpdateOptions UPSERT = new UpdateOptions().upsert(true);

  private final RequestPath path;
  private final MongoLastLocationSettings settings;
  private final MongoOperations.Outcomes outcomes;
  private final WholeKeyUpsert wholeKey;
  private final Map<String, List<Document>> buffers = new LinkedHashMap<>();
  private int buffered;

  LastLocationOperations(RequestPath path, MongoLastLocationSettings settings,
      MongoOperations.Outcomes outcomes) {
    this.path = path;
    this.settings = settings;
    this.outcomes = outcomes;
    this.wholeKey = settings.lklKeyBeyondId().isEmpty() ? null
        : new WholeKeyUpsert(path, settings.lkl(), settings.lklKeyBeyondId());
  }

  @Override
  public Status appendHistory(LocationEvent event) {
    String collection = settings.historyFor(event.timestampMs());
    buffers.computeIfAbsent(collection, name -> new ArrayList<>()).add(LastLocationDocuments.history(event));
    buffered++;
    return buffered >= settings.batchSize() ? flush(collection) : Status.BATCHED_OK;
  }

  /**
   * Writes every buffered event. With {@code flusher} (the collection the last appended event went to)
   * the status is that event's own outcome; with null (the final flush) OK when all were written.
   */
  Status flush(String flusher) {
    Status flusherStatus = Status.OK;
    boolean allOk = true;
    for (Map.Entry<String, List<Document>> buffer : buffers.entrySet()) {
      List<Document> batch = buffer.getValue();
      if (batch.isEmpty()) {
        continue;
      }
      RequestPath.Written written = path.writeMany(Op.HISTORY_INSERT, buffer.getKey(), batch, false);
      boolean mine = buffer.getKey().equals(flusher);
      Status status = outcomes.settle(HISTORY_INSERT, written, mine ? batch.size() - 1 : -1);
      if (mine) {
        flusherStatus = status;
      }
      allOk &= written.failedCount() == 0;
      buffer.setValue(new ArrayList<>());
    }
    buffered = 0;
    return flusher != null ? flusherStatus : allOk ? Status.OK : Status.ERROR;
  }

  /**
   * The conditional upsert ({@code {_id: user, T: {$lt: t}}}, upsert). A duplicate key means a document
   * for the user exists that the filter did not match: usually a newer one (this event is stale), but
   * also the one a concurrent first event of the same user inserted a moment ago. So the update is
   * tried once more: it matches now if this event is the newer one; a second duplicate key is stale. A
   * shard key beyond {@code _id} takes {@link WholeKeyUpsert} instead.
   */
  @Override
  public Status upsertLastLocation(LocationEvent event) {
    if (wholeKey != null) {
      return outcomes.attempt("upsert of ", event.userId(), () -> wholeKey.upsert(event));
    }
    return outcomes.attempt("upsert of ", event.userId(), () -> {
      for (int attempt = 0; ; attempt++) {
        try {
          path.updateOne(Op.LKL_UPSERT, settings.lkl(), LastLocationDocuments.olderThan(event),
              LastLocationDocuments.replaceWith(event), UPSERT);
          return Status.OK;
        } catch (MongoWriteException e) {
          if (e.getError().getCategory() != ErrorCategory.DUPLICATE_KEY) {
            throw e;
          }
          if (attempt > 0) {
            return LastLocationContract.STALE;
          }
        }
      }
    });
  }

  @Override
  public Status readLastLocation(String userId, List<LocationEvent> out) {
    out.clear();
    return outcomes.attempt("read of ", userId, () -> {
      Document found = path.first(Op.LKL_READ, settings.lkl(), RequestPath.Find.of(new Document("_id", userId)));
      if (found != null) {
        out.add(LastLocationDocuments.fromLastKnown(found));
      }
      return Status.OK;
    });
  }

  @Override
  public Status historyRange(String userId, long fromMs, long toMs, List<LocationEvent> out) {
    out.clear();
    Status status = outcomes.attempt("history of ", userId, () -> {
      // The splits are in time order and each answer is sorted: appending them merges them.
      for (String name : settings.historiesBetween(fromMs, toMs)) {
        path.find(Op.HISTORY_RANGE, name, RequestPath.Find.of(LastLocationDocuments.range(userId, fromMs, toMs))
            .sort(Sorts.ascending(LastLocationDocuments.TIMESTAMP)), d -> out.add(LastLocationDocuments.fromHistory(d)));
      }
      return Status.OK;
    });
    if (status != Status.OK) {
      out.clear();
    }
    return status;
  }

  @Override
  public Status usersNear(double longitude, double latitude, double radiusMeters, int limit, List<LocationEvent> out) {
    out.clear();
    Status status = outcomes.attempt("near query on " + settings.lkl(), () -> {
      path.find(Op.LKL_NEAR, settings.lkl(), RequestPath.Find.of(LastLocationDocuments.near(longitude, latitude,
          radiusMeters * NearQuery.SERVER_METERS_PER_WORKLOAD_METER)).limit(limit),
          d -> out.add(LastLocationDocuments.fromLastKnown(d)));
      return Status.OK;
    });
    if (status != Status.OK) {
      out.clear();
    }
    return status;
  }
}
