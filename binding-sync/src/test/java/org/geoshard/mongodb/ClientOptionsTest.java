package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.MongoOperationTimeoutException;
import com.mongodb.MongoTimeoutException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import java.net.ServerSocket;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the sync driver does with the bindings' client settings. The deadline,
 * {@code MongoClientSettings.Builder.timeout}, is {@code @Alpha} in driver 5.x, and {@link MongoSettings}
 * relies on one of its effects: it bounds server selection too, so a longer server selection timeout is
 * cut to it. These tests pin that, so a driver upgrade that changes it fails here rather than in a benchmark
 * that waits 20 s where it meant 300 ms (or the other way round). Timing bounds are wide on purpose: the
 * point is 300 ms against 20 s, not the milliseconds. binding-async's {@code ReactiveDeadlineTest} pins the
 * same for the reactive driver with these helpers.
 */
public class ClientOptionsTest {
  private static final Logger LOG = LoggerFactory.getLogger(ClientOptionsTest.class);
  /** The deadline of these tests. */
  public static final long DEADLINE_MS = 300;
  /** A server selection timeout far above it: a request that waited it would fail the bound below. */
  public static final long LONG_SELECTION_MS = 20_000;
  /** Much less than {@link #LONG_SELECTION_MS}, much more than {@link #DEADLINE_MS} on a busy machine. */
  public static final long WITHIN_MS = 10_000;

  public static int closedPort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  /** The bindings' builder for {@code url} with a 300 ms deadline, then a 20 s server selection the settings refuse. */
  public static MongoClientSettings deadlineBelowSelection(String url) throws Exception {
    Properties p = new Properties();
    p.setProperty(MongoSettings.URL, url);
    p.setProperty(MongoSettings.TIMEOUT_MS, Long.toString(DEADLINE_MS));
    MongoSettings settings = MongoSettings.fromProperties(p);
    return ClientOptions.builder(new ConnectionString(url), settings.connection())
        .applyToClusterSettings(b -> b.serverSelectionTimeout(LONG_SELECTION_MS, TimeUnit.MILLISECONDS))
        .build();
  }

  /** Runs a ping through a new client of {@code settings}; what it threw and after how long. */
  private static Outcome ping(MongoClientSettings settings) {
    try (MongoClient client = MongoClients.create(settings)) {
      long start = System.nanoTime();
      Throwable thrown = catchThrowable(() -> client.getDatabase("ycsb").runCommand(new Document("ping", 1)));
      Outcome outcome = new Outcome(thrown, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
      LOG.info("ping failed after {} ms with {}", outcome.millis, String.valueOf(thrown));
      return outcome;
    }
  }

  record Outcome(Throwable thrown, long millis) {
  }

  @Test
  void theDeadlineCutsALongerServerSelectionOnAClosedPort() throws Exception {
    Outcome outcome = ping(deadlineBelowSelection("mongodb://127.0.0.1:" + closedPort() + "/ycsb"));
    assertThat(outcome.thrown()).isInstanceOf(MongoOperationTimeoutException.class)
        .hasMessageStartingWith("Timed out while waiting for a server that matches");
    assertThat(outcome.millis()).as("the 300 ms deadline ends the wait, not the 20 s selection")
        .isBetween(DEADLINE_MS - 50, WITHIN_MS);
  }

  @Test
  void theDeadlineCutsALongerServerSelectionOnAServerThatNeverAnswers() throws Exception {
    try (InProcessMongo mongo = new InProcessMongo(); StallingProxy proxy = new StallingProxy(mongo.port())) {
      proxy.stall();
      Outcome outcome = ping(deadlineBelowSelection(proxy.url("ycsb")));
      assertThat(outcome.thrown()).isInstanceOf(MongoOperationTimeoutException.class)
          .hasMessageStartingWith("Timed out while waiting for a server that matches");
      assertThat(outcome.millis()).as("the 300 ms deadline ends the wait, not the 20 s selection")
          .isBetween(DEADLINE_MS - 50, WITHIN_MS);
    }
  }

  /**
   * The other side: a selection shorter than the deadline ends the wait itself, and with a deadline set
   * the driver reports it as the operation's timeout too (the class does not say which ended the wait, the
   * time does). It is a {@link MongoTimeoutException}, which {@link Failures} looks for.
   */
  @Test
  void aShorterServerSelectionEndsTheWaitItselfAsTheOperationsTimeout() throws Exception {
    String url = "mongodb://127.0.0.1:" + closedPort() + "/ycsb";
    Properties p = new Properties();
    p.setProperty(MongoSettings.URL, url);
    p.setProperty(MongoSettings.SERVER_SELECTION_TIMEOUT, "1");
    MongoSettings settings = MongoSettings.fromProperties(p);
    assertThat(settings.connection().timeout(TimeUnit.MILLISECONDS)).isEqualTo(MongoSettings.DEFAULT_TIMEOUT_MS);
    Outcome outcome = ping(ClientOptions.builder(new ConnectionString(url), settings.connection()).build());
    assertThat(outcome.thrown()).isInstanceOf(MongoOperationTimeoutException.class)
        .isInstanceOf(MongoTimeoutException.class)
        .hasMessageStartingWith("Timed out while waiting for a server that matches");
    assertThat(outcome.millis()).as("1 s, not the 30 s deadline").isBetween(900L, WITHIN_MS);
  }
}
