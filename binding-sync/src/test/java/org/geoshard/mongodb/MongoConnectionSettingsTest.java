package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.event.CommandListener;
import java.util.concurrent.TimeUnit;
import org.geoshard.harness.config.ConfigException;
import org.junit.jupiter.api.Test;

/** How to connect: defaults, checks, and an equality that says which settings share one client. */
class MongoConnectionSettingsTest {
  /** A listener that is a value: two of them hear the same. */
  private record Tally(String name) implements CommandListener {
  }

  private static MongoConnectionSettings.Builder url(String url) {
    return MongoConnectionSettings.builder().url(url);
  }

  @Test
  void defaults() throws Exception {
    MongoConnectionSettings c = MongoConnectionSettings.builder().build();
    assertThat(c.url()).isEqualTo("mongodb://localhost:27017/ycsb");
    assertThat(c.database()).isEqualTo("ycsb");
    assertThat(c.throwaway()).isNull();
    assertThat(c.serverSelectionTimeout(TimeUnit.SECONDS)).isEqualTo(5);
    assertThat(c.timeout(TimeUnit.SECONDS)).isEqualTo(30);
    assertThat(c.connectWait(TimeUnit.SECONDS)).isEqualTo(30);
    assertThat(c.poolSize()).isEqualTo(100);
    assertThat(c.poolSource()).isEqualTo("driver default");
    assertThat(c.commandListeners()).isEmpty();
  }

  @Test
  void everyProblemAtOnceEachNamingItsProperty() {
    assertThatThrownBy(() -> url("mongodb://h/ycsb?serverSelectionTimeoutMS=45000").serverSelectionTimeout(2, TimeUnit.SECONDS)
        .timeout(0, TimeUnit.MILLISECONDS).connectWait(10, TimeUnit.MILLISECONDS).maxConnections(0).build())
        .isInstanceOf(ConfigException.class)
        .satisfies(e -> assertThat(((ConfigException) e).problems()).containsExactly(
            "Property 'mongodb.connect.wait.s' must be at least 1 second, but is 10 ms.",
            "Property 'mongodb.serverSelectionTimeout' (2000 ms) disagrees with serverSelectionTimeoutMS=45000 in "
                + "'mongodb.url'; set it in one place.",
            "Property 'mongodb.timeout.ms' must be at least 1 (milliseconds), but is 0.",
            "Property 'mongodb.maxconnections' must be at least 1, but is 0."));
  }

  @Test
  void aGivenSelectionLongerThanAnotherDeadlineIsSaidNotTheDefault() throws Exception {
    MongoConnectionSettings given = url("mongodb://h/ycsb").serverSelectionTimeout(20, TimeUnit.SECONDS).build();
    assertThat(given.selectionBeyond("mongodb.index.timeout.ms", 1000, "the index build's deadline")).isEqualTo(
        "Property 'mongodb.serverSelectionTimeout' (20000 ms) is longer than 'mongodb.index.timeout.ms' (1000 ms), the "
            + "index build's deadline, which bounds its server selection too. Raise mongodb.index.timeout.ms to at least "
            + "20000 or lower the server selection timeout to at most 1000 ms.");
    assertThat(given.selectionBeyond("mongodb.index.timeout.ms", 20_000, "the index build's deadline")).isNull();
    assertThat(url("mongodb://h/ycsb").build().selectionBeyond("mongodb.index.timeout.ms", 1000, "x"))
        .as("the 5 s default is not checked").isNull();
  }

  @Test
  void equalWhenTheyMakeTheSameClient() throws Exception {
    MongoConnectionSettings threads = url("mongodb://h/ycsb").clientThreads(50).build();
    MongoConnectionSettings property = url("mongodb://h/ycsb").maxConnections(50).clientThreads(200)
        .connectWait(90, TimeUnit.SECONDS).build();
    assertThat(property).as("the same pool, however it was sized, and the first contact's wait is not the client's")
        .isEqualTo(threads).hasSameHashCodeAs(threads);
    assertThat(property.poolSource()).isNotEqualTo(threads.poolSource());

    assertThat(url("mongodb://other/ycsb").clientThreads(50).build()).isNotEqualTo(threads);
    assertThat(url("mongodb://h/ycsb").clientThreads(51).build()).as("another pool").isNotEqualTo(threads);
    assertThat(url("mongodb://h/ycsb").clientThreads(50).timeout(9, TimeUnit.SECONDS).build()).isNotEqualTo(threads);
    assertThat(url("mongodb://h/ycsb").clientThreads(50).serverSelectionTimeout(2, TimeUnit.SECONDS).build())
        .isNotEqualTo(threads);
  }

  @Test
  void listenersTakePartByTheirOwnEquality() throws Exception {
    CommandListener anonymous = new CommandListener() {
    };
    CommandListener another = new CommandListener() {
    };
    MongoConnectionSettings once = url("mongodb://h/ycsb").addCommandListener(anonymous).build();
    assertThat(url("mongodb://h/ycsb").addCommandListener(anonymous).build()).as("the same listener")
        .isEqualTo(once).hasSameHashCodeAs(once);
    assertThat(url("mongodb://h/ycsb").addCommandListener(another).build()).as("another listener's client calls another")
        .isNotEqualTo(once);
    assertThat(url("mongodb://h/ycsb").build()).as("no listener").isNotEqualTo(once);
    assertThat(url("mongodb://h/ycsb").addCommandListener(new Tally("wire")).build())
        .as("listeners that are values, equal").isEqualTo(url("mongodb://h/ycsb").addCommandListener(new Tally("wire")).build());
  }

  @Test
  void throwawayUrlsHaveNoConnectionStringAndTheDefaultDatabase() throws Exception {
    MongoConnectionSettings c = url("testcontainers:2s").build();
    assertThat(c.throwaway()).isEqualTo(new ThrowawaySpec(2, "mongo:8.0"));
    assertThat(c.connectionString()).isNull();
    assertThat(c.database()).isEqualTo("ycsb");
  }

  @Test
  void theStringMasksThePassword() throws Exception {
    assertThat(url("mongodb://bench:hunter2@db1/ycsb").build().toString()).contains("bench:****@db1")
        .doesNotContain("hunter2");
  }
}
