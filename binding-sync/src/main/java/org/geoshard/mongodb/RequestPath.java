package org.geoshard.mongodb;

import com.mongodb.MongoBulkWriteException;
import com.mongodb.bulk.BulkWriteError;
import com.mongodb.client.model.ReplaceOneModel;
import com.mongodb.client.model.ReplaceOptions;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.model.WriteModel;
import com.mongodb.client.result.DeleteResult;
import com.mongodb.client.result.UpdateResult;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.Consumer;
import org.bson.Document;
import org.bson.conversions.Bson;

/**
 * How one client thread's requests reach MongoDB: the sync driver ({@link SyncRequestPath}) or the
 * reactive streams driver with routing (binding-async). Only the sending is here; what a request means,
 * its error mapping, buffering and checks are {@link MongoOperations}'s, once for both.
 *
 * <p>Every request has the client's deadline ({@code mongodb.timeout.ms}); a request that fails
 * throws what the driver throws (a {@link com.mongodb.MongoOperationTimeoutException} when the
 * deadline passed), except the batch writes, which report per document. Not thread-safe: one per
 * binding instance.
 */
public interface RequestPath {

  /** A find: the filter, and optionally a sort, a skip, a limit (0 for none) and a projection. */
  record Find(Document filter, Bson sort, int skip, int limit, Bson projection) {
    public static Find of(Document filter) {
      return new Find(filter, null, 0, 0, null);
    }

    public Find sort(Bson by) {
      return new Find(filter, by, skip, limit, projection);
    }

    public Find skip(int n) {
      return new Find(filter, sort, n, limit, projection);
    }

    public Find limit(int n) {
      return new Find(filter, sort, skip, n, projection);
    }

    public Find projection(Bson fields) {
      return new Find(filter, sort, skip, limit, fields);
    }

    /** The {@code find} command the driver sends for this find (less its projection and session fields). */
    public Document toCommand(String collection) {
      Document command = new Document("find", collection).append("filter", filter);
      if (sort != null) {
        command.append("sort", sort.toBsonDocument());
      }
      if (skip > 0) {
        command.append("skip", skip);
      }
      if (limit > 0) {
        command.append("limit", limit);
      }
      return command;
    }
  }

  /**
   * What a batch write did: which documents (by their index in the batch) were not written, and, when
   * some were not, what failed ({@code what}, a sentence) and the first cause (either may be null).
   */
  record Written(int size, BitSet failed, String what, RuntimeException cause) {
    public static Written all(int size) {
      return new Written(size, new BitSet(), null, null);
    }

    /**
     * The outcome of a batch that threw {@code e}: an unordered bulk write's write errors name the
     * documents that failed (the others were written); any other failure (a timeout, a write concern
     * error, a lost connection) leaves every document of the batch unconfirmed, so all count as failed.
     */
    public static Written failedBy(int size, RuntimeException e, String what) {
      BitSet failed = new BitSet(size);
      if (e instanceof MongoBulkWriteException bulk && !bulk.getWriteErrors().isEmpty() && bulk.getWriteConcernError() == null) {
        for (BulkWriteError error : bulk.getWriteErrors()) {
          failed.set(error.getIndex());
        }
        return new Written(size, failed, what + " (" + failed.cardinality() + " of " + size + " failed, first: "
            + bulk.getWriteErrors().get(0).getMessage() + ")", null);
      }
      failed.set(0, size);
      return new Written(size, failed, what + " of " + size + " documents", e);
    }

    public int failedCount() {
      return failed.cardinality();
    }

    public int okCount() {
      return size - failed.cardinality();
    }
  }

  /** Every document of {@code find} on {@code collection}, in order, into {@code sink}. */
  void find(Op op, String collection, Find find, Consumer<Document> sink);

  /** The first document of {@code find}, or null. */
  Document first(Op op, String collection, Find find);

  void insertOne(Op op, String collection, Document document);

  /** Replaces the document with the same {@code _id}, inserting it when there is none. */
  void upsertById(Op op, String collection, Document document);

  UpdateResult updateOne(Op op, String collection, Document filter, Bson update, UpdateOptions options);

  DeleteResult deleteOne(Op op, String collection, Document filter);

  /** An unordered {@code insertMany} (or, with {@code upsert}, replacements by {@code _id}); never throws. */
  Written writeMany(Op op, String collection, List<Document> documents, boolean upsert);

  /** Replacements by {@code _id}, inserting where there is none (YCSB's inserts with {@code mongodb.upsert}). */
  static List<WriteModel<Document>> upsertsById(List<Document> documents) {
    List<WriteModel<Document>> writes = new ArrayList<>(documents.size());
    ReplaceOptions upsert = new ReplaceOptions().upsert(true);
    for (Document d : documents) {
      writes.add(new ReplaceOneModel<>(new Document("_id", d.get("_id")), d, upsert));
    }
    return writes;
  }

  /** Gets ready to send to a collection (binding-async reads its routing table), so that the first measured request does not. */
  default void warmUp(String collection) {
  }
}
