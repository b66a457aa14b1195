package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.geoshard.harness.config.RecordingProperties;
import org.junit.jupiter.api.Test;

/** The catalog is what the settings readers read, not a list kept by hand beside them. */
class MongoPropertiesTest {
  /** Every name the catalog listed by hand before it was derived, set to a value its reader takes. */
  private static Properties everyNameSet() {
    Properties p = new Properties();
    p.setProperty(MongoSettings.URL, "mongodb://db1:27017/bench");
    p.setProperty(MongoSettings.COLLECTION, "places");
    p.setProperty(MongoSettings.WRITE_CONCERN, "majority");
    p.setProperty(MongoSettings.READ_PREFERENCE, "primary");
    p.setProperty(MongoSettings.SERVER_SELECTION_TIMEOUT, "5");
    p.setProperty(MongoSettings.CONNECT_WAIT, "30");
    p.setProperty(MongoSettings.TIMEOUT_MS, "30000");
    p.setProperty(MongoSettings.INDEX_TIMEOUT_MS, "60000");
    p.setProperty(MongoSettings.MAX_CONNECTIONS, "10");
    p.setProperty(MongoSettings.UPSERT, "true");
    p.setProperty(MongoSettings.BATCH_SIZE, "10");
    p.setProperty(MongoSettings.DROP, "true");
    p.setProperty(MongoSettings.SHARD_KEY, "Name:hashed");
    p.setProperty(MongoSettings.NUM_INITIAL_CHUNKS, "4");
    p.setProperty(MongoSettings.INDEX_WHEN, "before");
    p.setProperty(MongoSettings.INDEX_POLL_MS, "100");
    p.setProperty(MongoSettings.MAX_DISTANCE, "scaled");
    p.setProperty(MongoSettings.DO_TRANSACTIONS, "false");
    p.setProperty(MongoSettings.CLIENT_THREADS, "8");
    p.setProperty(MongoLastLocationSettings.HISTORY, "hist");
    p.setProperty(MongoLastLocationSettings.LKL, "lkl");
    p.setProperty(MongoLastLocationSettings.HISTORY_SHARD_KEY, "UserId:1,Timestamp:1");
    p.setProperty(MongoLastLocationSettings.LKL_SHARD_KEY, "_id:hashed");
    p.setProperty(MongoLastLocationSettings.LKL_URL, "mongodb://db2:27017/bench");
    p.setProperty(BalancerPolicy.PROPERTY, "pause");
    return p;
  }

  @Test
  void theCatalogIsWhatTheReadersReadEvenWithEveryNameSet() {
    Properties none = new Properties();
    Properties all = everyNameSet();
    Set<String> read = new TreeSet<>(RecordingProperties.namesReadBy(MongoSettings::fromProperties, none, all));
    read.addAll(RecordingProperties.namesReadBy(BalancerPolicy::fromProperties, none, all));
    RecordingProperties.namesReadBy(MongoLastLocationSettings::fromProperties, none, all).stream()
        .filter(name -> name.startsWith("mongodb.")).forEach(read::add);
    assertThat(new MongoProperties().names()).containsExactlyInAnyOrderElementsOf(read);
  }

  @Test
  void noNameOfTheHandMadeListIsLostAndTheHarnessesClientThreadsIsSaid() {
    assertThat(new MongoProperties().names()).containsExactlyInAnyOrderElementsOf(everyNameSet().stringPropertyNames());
  }
}
