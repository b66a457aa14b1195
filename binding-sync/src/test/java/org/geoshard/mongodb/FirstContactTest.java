package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import java.net.ServerSocket;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The first contact of a phase waits {@code mongodb.connect.wait.s}, not the run's server selection
 * timeout (500 s in the study's scenarios), says what it waits for every 10 s, and fails at the time it
 * named: for a wrong port and for a server that accepts connections and never answers (a stalled proxy).
 * Timing bounds are wide (a loaded machine); the test is in bin/test's flaky list.
 */
class FirstContactTest {
  private static int closedPort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private static Properties props(String url, String wait) {
    Properties p = new Properties();
    p.setProperty(MongoSettings.URL, url);
    p.setProperty(MongoSettings.SERVER_SELECTION_TIMEOUT, "500");  // the study's scenarios
    p.setProperty(MongoSettings.TIMEOUT_MS, "3600000");
    p.setProperty(MongoSettings.CONNECT_WAIT, wait);
    return p;
  }

  private static long failsAfterMs(Properties p, String expected) {
    MongoGeoBinding db = new MongoGeoBinding();
    db.setProperties(p);
    long start = System.nanoTime();
    assertThatThrownBy(db::init).isInstanceOf(MongoStartException.class).hasMessageStartingWith(expected);
    return (System.nanoTime() - start) / 1_000_000;
  }

  @Test
  void aWrongPortFailsAtTheConnectWaitNotTheServerSelectionTimeout() throws Exception {
    int port = closedPort();
    String url = "mongodb://127.0.0.1:" + port + "/ycsb";
    long ms = failsAfterMs(props(url, "2"), "No MongoDB server answered at " + url
        + " within 2 s (mongodb.connect.wait.s) (tried 127.0.0.1:" + port + ": Connection refused); check mongodb.url");
    assertThat(ms).as("2 s named, not 500 s nor twice 2 s").isBetween(1_900L, 3_900L);
    assertThat(LeftOpen.standaloneClients().openClients()).isZero();
  }

  @Test
  void aServerThatAcceptsAndNeverAnswersFailsAtTheTimeNamed() throws Exception {
    try (InProcessMongo mongo = new InProcessMongo(); StallingProxy proxy = new StallingProxy(mongo.port())) {
      proxy.stall();
      String url = proxy.url("ycsb");
      long ms = failsAfterMs(props(url, "3"), "No MongoDB server answered at " + url
          + " within 3 s (mongodb.connect.wait.s) (tried 127.0.0.1:" + proxy.port() + ": ");
      assertThat(ms).as("3 s named, not twice that").isBetween(2_900L, 5_900L);
    }
    assertThat(LeftOpen.standaloneClients().openClients()).isZero();
  }

  @Test
  void theWaitSaysAfterASecondWhatItWaitsForAndWhereThenEveryTenSecondsHowLong() throws Exception {
    int port = closedPort();
    List<String> lines = new CopyOnWriteArrayList<>();
    try (MongoClient client = MongoClients.create("mongodb://127.0.0.1:" + port + "/?serverSelectionTimeoutMS=500000")) {
      assertThatThrownBy(() -> FirstContact.await(client::getClusterDescription, 11_000, MongoSettings.CONNECT_WAIT,
          List.of("127.0.0.1:" + port), "here", lines::add)).hasMessageStartingWith("No MongoDB server answered at here"
          + " within 11 s (mongodb.connect.wait.s)");
    }
    assertThat(lines).hasSize(2);
    assertThat(lines.get(0)).isEqualTo("Waiting for an answer from 127.0.0.1:" + port
        + " (up to 11 s, mongodb.connect.wait.s).");
    assertThat(lines.get(1))
        .matches("No answer from 127\\.0\\.0\\.1:" + port + " yet: 1[01] s of 11 s, mongodb\\.connect\\.wait\\.s\\.");
  }

  @Test
  void anInterruptEndsTheWaitAtOnce() throws Exception {
    int port = closedPort();
    try (MongoClient client = MongoClients.create("mongodb://127.0.0.1:" + port + "/")) {
      Thread.currentThread().interrupt();
      long start = System.nanoTime();
      assertThatThrownBy(() -> FirstContact.await(client::getClusterDescription, 60_000, MongoSettings.CONNECT_WAIT,
          List.of("127.0.0.1:" + port), "here", line -> { })).hasMessage(
          "Interrupted while waiting for a MongoDB server at here.");
      assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(1_000L);
      assertThat(Thread.interrupted()).as("the interrupt is kept for the caller").isTrue();
    }
  }

  @Test
  void theConnectWaitIsAtLeastASecond() {
    assertThatThrownBy(() -> MongoSettings.fromProperties(props("mongodb://127.0.0.1:27017/ycsb", "0")))
        .hasMessage("Property 'mongodb.connect.wait.s' must be a whole number of at least 1, but is '0'.");
  }
}
