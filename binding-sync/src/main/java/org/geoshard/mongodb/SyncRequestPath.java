package org.geoshard.mongodb;

import com.mongodb.client.FindIterable;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoCursor;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.BulkWriteOptions;
import com.mongodb.client.model.InsertManyOptions;
import com.mongodb.client.model.ReplaceOptions;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.result.DeleteResult;
import com.mongodb.client.result.UpdateResult;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.bson.Document;
import org.bson.conversions.Bson;

/**
 * The request path of {@code mongodb-geo}: the sync driver's shared client, every request through
 * {@code mongodb.url} (the mongos routes). The client carries the deadline ({@link ClientOptions}).
 */
final class SyncRequestPath implements RequestPath {
  static final InsertManyOptions UNORDERED = new InsertManyOptions().ordered(false);
  static final BulkWriteOptions UNORDERED_BULK = new BulkWriteOptions().ordered(false);
  static final ReplaceOptions UPSERT = new ReplaceOptions().upsert(true);

  private final MongoDatabase database;
  private final Map<String, MongoCollection<Document>> collections = new HashMap<>();

  /** @param database with the binding's write concern and read preference */
  SyncRequestPath(MongoDatabase database) {
    this.database = database;
  }

  MongoCollection<Document> collection(String name) {
    return collections.computeIfAbsent(name, database::getCollection);
  }

  private FindIterable<Document> iterable(String collection, Find find) {
    FindIterable<Document> it = collection(collection).find(find.filter());
    if (find.sort() != null) {
      it.sort(find.sort());
    }
    if (find.skip() > 0) {
      it.skip(find.skip());
    }
    if (find.limit() > 0) {
      it.limit(find.limit());
    }
    if (find.projection() != null) {
      it.projection(find.projection());
    }
    return it;
  }

  @Override
  public void find(Op op, String collection, Find find, Consumer<Document> sink) {
    try (MongoCursor<Document> cursor = iterable(collection, find).iterator()) {
      while (cursor.hasNext()) {
        sink.accept(cursor.next());
      }
    }
  }

  @Override
  public Document first(Op op, String collection, Find find) {
    return iterable(collection, find.limit(1)).first();
  }

  @Override
  public void insertOne(Op op, String collection, Document document) {
    collection(collection).insertOne(document);
  }

  @Override
  public void upsertById(Op op, String collection, Document document) {
    collection(collection).replaceOne(new Document("_id", document.get("_id")), document, UPSERT);
  }

  @Override
  public UpdateResult updateOne(Op op, String collection, Document filter, Bson update, UpdateOptions options) {
    return collection(collection).updateOne(filter, update, options);
  }

  @Override
  public DeleteResult deleteOne(Op op, String collection, Document filter) {
    return collection(collection).deleteOne(filter);
  }

  @Override
  public Written writeMany(Op op, String collection, List<Document> documents, boolean upsert) {
    MongoCollection<Document> c = collection(collection);
    try {
      if (upsert) {
        c.bulkWrite(RequestPath.upsertsById(documents), UNORDERED_BULK);
      } else {
        c.insertMany(documents, UNORDERED);
      }
      return Written.all(documents.size());
    } catch (RuntimeException e) {
      return Written.failedBy(documents.size(), e, (upsert ? "bulk upsert" : "insertMany") + " into " + c.getNamespace());
    }
  }
}
