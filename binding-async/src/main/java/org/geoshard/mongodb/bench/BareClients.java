package org.geoshard.mongodb.bench;

import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.bson.Document;
import org.geoshard.mongodb.ClientOptions;
import org.geoshard.mongodb.MongoSettings;
import org.geoshard.mongodb.async.ReactiveClientOptions;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

/**
 * The bare drivers the bindings are compared with: a client of the sync driver (beside
 * {@code mongodb-geo}) or of the reactive streams driver (beside {@code mongodb-async}) with the
 * settings the bindings give theirs (URL, pool size, deadline, server selection timeout, read
 * preference, write concern), and each thread's read as a program using the driver alone writes it:
 * the find by {@code _id} the bindings send for a YCSB read of all fields, its document decoded.
 */
final class BareClients {
  private BareClients() {
  }

  /** One client of either driver; close it after the run. */
  interface Bare extends AutoCloseable {
    /** A read for one thread: true when the key's record came back. */
    Predicate<String> reader();

    @Override
    void close();
  }

  /** The bindings' own client settings ({@link ClientOptions}), under an application name of the bare loop's. */
  static MongoClientSettings settings(MongoSettings s) {
    return ClientOptions.builder(s.connection().connectionString(), s.connection()).applicationName("geoshard-bare").build();
  }

  static Bare sync(MongoSettings s, String table) {
    MongoClient client = MongoClients.create(settings(s));
    MongoCollection<Document> collection = ClientOptions.database(client, s).getCollection(table);
    return new Bare() {
      @Override
      public Predicate<String> reader() {
        return key -> collection.find(new Document("_id", key)).limit(1).first() != null;
      }

      @Override
      public void close() {
        client.close();
      }
    };
  }

  static Bare reactive(MongoSettings s, String table) {
    com.mongodb.reactivestreams.client.MongoClient client =
        com.mongodb.reactivestreams.client.MongoClients.create(settings(s));
    com.mongodb.reactivestreams.client.MongoCollection<Document> collection =
        ReactiveClientOptions.database(client, s).getCollection(table);
    long waitMs = s.connection().timeout(TimeUnit.MILLISECONDS) + 2_000;
    return new Bare() {
      @Override
      public Predicate<String> reader() {
        // batchSize 0 as the binding sends it (the driver would otherwise ask for as many as the demand).
        return key -> First.of(collection.find(new Document("_id", key)).limit(1).batchSize(0).first(), waitMs) != null;
      }

      @Override
      public void close() {
        client.close();
      }
    };
  }

  /** Waits for a publisher's first item (null when it completes empty): the least a reactive caller does. */
  static final class First<T> extends CompletableFuture<T> implements Subscriber<T> {
    static <T> T of(org.reactivestreams.Publisher<T> publisher, long waitMs) {
      First<T> first = new First<>();
      publisher.subscribe(first);
      try {
        return first.get(waitMs, TimeUnit.MILLISECONDS);
      } catch (ExecutionException e) {
        throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
      } catch (TimeoutException e) {
        throw new IllegalStateException("No answer within " + waitMs + " ms", e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted", e);
      }
    }

    @Override
    public void onSubscribe(Subscription s) {
      s.request(1);
    }

    @Override
    public void onNext(T item) {
      complete(item);
    }

    @Override
    public void onError(Throwable t) {
      completeExceptionally(t);
    }

    @Override
    public void onComplete() {
      complete(null);
    }
  }
}
