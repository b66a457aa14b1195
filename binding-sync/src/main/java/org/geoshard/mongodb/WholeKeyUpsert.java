package org.geoshard.mongodb;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoWriteException;
import com.mongodb.client.model.UpdateOptions;
import java.util.List;
import org.bson.Document;
import org.geoshard.lastlocation.contract.LastLocationContract;
import org.geoshard.lastlocation.contract.LocationEvent;
import site.ycsb.Status;

/**
 * The conditional LastKnownLocation upsert when the collection's shard key goes beyond {@code _id}
 * (e.g. {@code _id:1,CellId:1}), where each write names the whole key.
 *
 * <p>Why: MongoDB changes a document's shard key value only in an update whose filter has equality on the
 * whole key, run as a retryable write or in a transaction (manual, "Change a Document's Shard Key Value";
 * error 31025), and before FCV 7.0 an upsert must name the whole key too (SERVER-1689). The plain upsert
 * ({@code {_id, T: {$lt: t}}}) names only {@code _id}: refused before 7.0, and from 7.0 mongos sends it to
 * the one shard that equality on {@code _id} picks, whatever the chunks' layout, where a user's move to
 * another cell changes a key value without the whole key (SERVER-106069). So:
 * <ol>
 *   <li>{@code {_id, <key fields>: the event's values, T: {$lt: t}}} is updated, without upsert: a user
 *       still in the same cell costs one request, as under {@code _id:hashed};</li>
 *   <li>else the stored document is read by {@code _id}: none, and the event is inserted; as new or newer,
 *       and the event is stale; older, and it is updated with its own key values and time in the filter,
 *       which moves the user (a retryable write, the driver's default).</li>
 * </ol>
 * A write that loses a race with another client (its insert meets a duplicate key, its update matches
 * nothing) reads again, at most {@value #ROUNDS} times. Every request counts under {@link Op#LKL_UPSERT}.
 */
final class WholeKeyUpsert {
  static final int ROUNDS = 8;
  private static final UpdateOptions NO_UPSERT = new UpdateOptions();

  private final RequestPath path;
  private final String collection;
  private final List<String> keyBeyondId;
  private final boolean eventFixesTheKey;

  /** @param keyBeyondId the shard key's fields after {@code _id}, in order */
  WholeKeyUpsert(RequestPath path, String collection, List<String> keyBeyondId) {
    this.path = path;
    this.collection = collection;
    this.keyBeyondId = List.copyOf(keyBeyondId);
    // With T in the key every newer event changes the key, so the first step could never match.
    this.eventFixesTheKey = !keyBeyondId.contains(LastLocationDocuments.LKL_TIMESTAMP);
  }

  Status upsert(LocationEvent event) {
    Document update = LastLocationDocuments.replaceWith(event);
    Document values = update.get("$set", Document.class);
    if (eventFixesTheKey && path.updateOne(Op.LKL_UPSERT, collection, keyed(event.userId(), values)
        .append(LastLocationDocuments.LKL_TIMESTAMP, new Document("$lt", event.timestampMs())), update, NO_UPSERT)
        .getMatchedCount() == 1) {
      return Status.OK;
    }
    for (int round = 0; round < ROUNDS; round++) {
      Document stored = path.first(Op.LKL_UPSERT, collection, RequestPath.Find.of(new Document("_id", event.userId())));
      if (stored == null) {
        if (inserted(event.userId(), values)) {
          return Status.OK;
        }
        continue;
      }
      Object storedTime = stored.get(LastLocationDocuments.LKL_TIMESTAMP);
      if (storedTime instanceof Number t && t.longValue() >= event.timestampMs()) {
        return LastLocationContract.STALE;
      }
      Document asStored = keyed(event.userId(), stored).append(LastLocationDocuments.LKL_TIMESTAMP, storedTime);
      if (path.updateOne(Op.LKL_UPSERT, collection, asStored, update, NO_UPSERT).getMatchedCount() == 1) {
        return Status.OK;
      }
    }
    throw new IllegalStateException("the LastKnownLocation of " + event.userId() + " changed under each of "
        + ROUNDS + " reads in a row (another client writing the same user?)");
  }

  /** Equality on {@code _id} and every later key field, with the values {@code source} holds (null if none). */
  private Document keyed(String userId, Document source) {
    Document filter = new Document("_id", userId);
    for (String field : keyBeyondId) {
      filter.append(field, source.get(field));
    }
    return filter;
  }

  /** Inserts the event's document; false when another client's first event of the user was there first. */
  private boolean inserted(String userId, Document values) {
    Document document = new Document("_id", userId);
    document.putAll(values);
    try {
      path.insertOne(Op.LKL_UPSERT, collection, document);
      return true;
    } catch (MongoWriteException e) {
      if (e.getError().getCategory() != ErrorCategory.DUPLICATE_KEY) {
        throw e;
      }
      return false;
    }
  }
}
