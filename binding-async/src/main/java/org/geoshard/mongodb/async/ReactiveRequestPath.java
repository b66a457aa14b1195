package org.geoshard.mongodb.async;

import com.mongodb.client.model.ReplaceOptions;
import com.mongodb.client.model.UpdateOptions;
import com.mongodb.client.result.DeleteResult;
import com.mongodb.client.result.UpdateResult;
import com.mongodb.reactivestreams.client.FindPublisher;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.geoshard.mongodb.Op;
import org.geoshard.mongodb.RequestPath;
import org.reactivestreams.Publisher;

/**
 * The request path of {@code mongodb-async}: the reactive streams driver, each request sent to the
 * router the {@link Router} picks (the one next to the owning shard when the request carries the
 * shard key, else the default router), counted per endpoint; a batch is split by owner and its parts
 * written at once. The calling thread waits for each request ({@link Blocking}), at most the deadline.
 */
final class ReactiveRequestPath implements RequestPath {
  private static final ReplaceOptions UPSERT = new ReplaceOptions().upsert(true);
  private static final com.mongodb.client.model.InsertManyOptions UNORDERED =
      new com.mongodb.client.model.InsertManyOptions().ordered(false);
  private static final com.mongodb.client.model.BulkWriteOptions UNORDERED_BULK =
      new com.mongodb.client.model.BulkWriteOptions().ordered(false);

  private final Router router;
  private final String database;
  private final long timeoutMs;
  /** This thread's tables by collection name (no shared map on the request path). */
  private final Map<String, Router.Table> tables = new HashMap<>();

  ReactiveRequestPath(Router router) {
    this.router = router;
    this.database = router.settings.mongo().connection().database();
    this.timeoutMs = router.settings.mongo().connection().timeout(TimeUnit.MILLISECONDS);
  }

  private Router.Table table(String collection) {
    Router.Table t = tables.get(collection);
    if (t == null) {
      t = router.table(database + "." + collection);
      tables.put(collection, t);
    }
    return t;
  }

  @Override
  public void warmUp(String collection) {
    table(collection);
  }

  /** The router of a request by its filter (a keyless request goes to the default router). */
  private Endpoint byFilter(Op op, String collection, Document filter) {
    Endpoint e = op.keyless() ? router.keyless() : router.byFilter(table(collection), filter);
    e.counters.sent(op);
    return e;
  }

  private Endpoint byDocument(Op op, String collection, Document document) {
    Endpoint e = router.byDocument(table(collection), document);
    e.counters.sent(op);
    return e;
  }

  /** Sends one request on the endpoint's current pool and waits for it; a failure is counted against the endpoint and thrown. */
  private <T> T counted(Endpoint e, Request<T> request) {
    Endpoint.Pool pool = e.current();
    try {
      return request.send(pool, () -> e.abandoned(pool));
    } catch (RuntimeException | Error ex) {
      e.counters.failed();
      throw ex;
    }
  }

  /** One request on a pool, told what to call if the driver abandons it. */
  @FunctionalInterface
  private interface Request<T> {
    T send(Endpoint.Pool pool, Runnable abandoned);
  }

  private FindPublisher<Document> publisher(Endpoint.Pool pool, String collection, Find find) {
    FindPublisher<Document> p = pool.collection(collection).find(find.filter());
    if (find.sort() != null) {
      p.sort(find.sort());
    }
    if (find.skip() > 0) {
      p.skip(find.skip());
    }
    if (find.limit() > 0) {
      p.limit(find.limit());
    }
    // The find command the sync driver sends, without a batchSize: left unset, this driver asks for as many
    // documents as the subscriber's demand (Long.MAX_VALUE here) and sends batchSize 2147483647, which one
    // server (FerretDB) tried to honour in memory. 0 means "the server's default", as for the sync driver.
    p.batchSize(0);
    if (find.projection() != null) {
      p.projection(find.projection());
    }
    return p;
  }

  @Override
  public void find(Op op, String collection, Find find, Consumer<Document> sink) {
    Endpoint e = byFilter(op, collection, find.filter());
    counted(e, (pool, abandoned) -> {
      Blocking.each(publisher(pool, collection, find), sink, timeoutMs, abandoned);
      return null;
    });
  }

  @Override
  public Document first(Op op, String collection, Find find) {
    Endpoint e = byFilter(op, collection, find.filter());
    return counted(e, (pool, abandoned) -> Blocking.first(publisher(pool, collection, find.limit(1)).first(), timeoutMs,
        abandoned));
  }

  @Override
  public void insertOne(Op op, String collection, Document document) {
    Endpoint e = byDocument(op, collection, document);
    counted(e, (pool, abandoned) -> Blocking.first(pool.collection(collection).insertOne(document), timeoutMs, abandoned));
    e.counters.wrote(1);
  }

  @Override
  public void upsertById(Op op, String collection, Document document) {
    Endpoint e = byDocument(op, collection, document);
    counted(e, (pool, abandoned) -> Blocking.first(pool.collection(collection).replaceOne(
        new Document("_id", document.get("_id")), document, UPSERT), timeoutMs, abandoned));
    e.counters.wrote(1);
  }

  @Override
  public UpdateResult updateOne(Op op, String collection, Document filter, Bson update, UpdateOptions options) {
    Endpoint e = byFilter(op, collection, filter);
    UpdateResult result = counted(e, (pool, abandoned) -> Blocking.first(
        pool.collection(collection).updateOne(filter, update, options), timeoutMs, abandoned));
    if (op == Op.LKL_UPSERT) {
      e.counters.wrote(1);
    }
    return result;
  }

  @Override
  public DeleteResult deleteOne(Op op, String collection, Document filter) {
    Endpoint e = byFilter(op, collection, filter);
    return counted(e, (pool, abandoned) -> Blocking.first(pool.collection(collection).deleteOne(filter), timeoutMs,
        abandoned));
  }

  /**
   * Splits the batch by the shard that owns each document and sends every part at once to its router
   * (unordered), then maps each part's outcome back to the documents of the batch.
   */
  @Override
  public Written writeMany(Op op, String collection, List<Document> documents, boolean upsert) {
    Map<Endpoint, List<Integer>> parts = new LinkedHashMap<>();
    Router.Table t = table(collection);
    for (int i = 0; i < documents.size(); i++) {
      parts.computeIfAbsent(router.byDocument(t, documents.get(i)), e -> new ArrayList<>()).add(i);
    }
    List<Endpoint> endpoints = new ArrayList<>(parts.keySet());
    List<Publisher<?>> writes = new ArrayList<>(endpoints.size());
    List<Runnable> abandoned = new ArrayList<>(endpoints.size());
    for (Endpoint e : endpoints) {
      e.counters.sent(op);
      Endpoint.Pool pool = e.current();
      abandoned.add(() -> e.abandoned(pool));
      List<Document> part = new ArrayList<>(parts.get(e).size());
      parts.get(e).forEach(i -> part.add(documents.get(i)));
      writes.add(upsert ? pool.collection(collection).bulkWrite(RequestPath.upsertsById(part), UNORDERED_BULK)
          : pool.collection(collection).insertMany(part, UNORDERED));
    }
    List<Object> outcomes = Blocking.settle(writes, timeoutMs, abandoned);
    BitSet failed = new BitSet(documents.size());
    List<String> what = new ArrayList<>();
    RuntimeException cause = null;
    for (int i = 0; i < outcomes.size(); i++) {
      Endpoint e = endpoints.get(i);
      List<Integer> indices = parts.get(e);
      Object outcome = outcomes.get(i);
      if (outcome instanceof Error err) {
        throw err;
      }
      if (outcome instanceof RuntimeException ex) {
        e.counters.failed();
        Written part = Written.failedBy(indices.size(), ex, (upsert ? "bulk upsert" : "insertMany") + " into "
            + database + "." + collection + " via " + e.name);
        part.failed().stream().forEach(j -> failed.set(indices.get(j)));
        e.counters.wrote(part.okCount());
        what.add(part.what());
        cause = cause != null ? cause : part.cause();
      } else {
        e.counters.wrote(indices.size());
      }
    }
    return failed.isEmpty() ? Written.all(documents.size())
        : new Written(documents.size(), failed, String.join("; ", what), cause);
  }
}
