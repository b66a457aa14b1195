package org.geoshard.mongodb.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.geoshard.mongodb.ClientOptionsTest.DEADLINE_MS;
import static org.geoshard.mongodb.ClientOptionsTest.WITHIN_MS;

import com.mongodb.MongoClientSettings;
import com.mongodb.MongoOperationTimeoutException;
import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.bson.Document;
import org.geoshard.mongodb.ClientOptionsTest;
import org.geoshard.mongodb.InProcessMongo;
import org.geoshard.mongodb.StallingProxy;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

/**
 * The reactive driver with the client settings both bindings share ({@code ClientOptions}, which
 * {@link Endpoint} uses): its deadline, {@code @Alpha} in driver 5.x, cuts a longer server selection as
 * the sync driver's does ({@link ClientOptionsTest}). The wait here is the test's own (no
 * {@link Blocking} backstop), so what ends the request is the driver.
 */
class ReactiveClientOptionsTest {

  /** What a ping through a reactive client of {@code settings} signalled, and after how long. */
  private static long failsAfterMs(MongoClientSettings settings) {
    try (MongoClient client = MongoClients.create(settings)) {
      long start = System.nanoTime();
      Throwable thrown = catchThrowable(() -> first(client.getDatabase("ycsb").runCommand(new Document("ping", 1))));
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertThat(thrown).as("after %d ms", millis).isInstanceOf(MongoOperationTimeoutException.class)
          .hasMessageStartingWith("Timed out while waiting for a server that matches");
      return millis;
    }
  }

  /** The first signal of {@code publisher}, waiting at most {@link ClientOptionsTest#WITHIN_MS} for the driver to give one. */
  private static <T> T first(Publisher<T> publisher) throws Throwable {
    CompletableFuture<T> done = new CompletableFuture<>();
    publisher.subscribe(new Subscriber<T>() {
      @Override
      public void onSubscribe(Subscription s) {
        s.request(1);
      }

      @Override
      public void onNext(T item) {
        done.complete(item);
      }

      @Override
      public void onError(Throwable t) {
        done.completeExceptionally(t);
      }

      @Override
      public void onComplete() {
        done.complete(null);
      }
    });
    try {
      return done.get(WITHIN_MS, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw e.getCause();
    }
  }

  @Test
  void theDeadlineCutsALongerServerSelectionOnAClosedPort() throws Exception {
    long ms = failsAfterMs(ClientOptionsTest.deadlineBelowSelection(
        "mongodb://127.0.0.1:" + ClientOptionsTest.closedPort() + "/ycsb"));
    assertThat(ms).as("the 300 ms deadline ends the wait, not the 20 s selection").isBetween(DEADLINE_MS - 50, WITHIN_MS);
  }

  @Test
  void theDeadlineCutsALongerServerSelectionOnAServerThatNeverAnswers() throws Exception {
    try (InProcessMongo mongo = new InProcessMongo(); StallingProxy proxy = new StallingProxy(mongo.port())) {
      proxy.stall();
      long ms = failsAfterMs(ClientOptionsTest.deadlineBelowSelection(proxy.url("ycsb")));
      assertThat(ms).as("the 300 ms deadline ends the wait, not the 20 s selection").isBetween(DEADLINE_MS - 50, WITHIN_MS);
    }
  }
}
