package org.geoshard.mongodb.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.geoshard.harness.config.RecordingProperties;
import org.geoshard.mongodb.MongoProperties;
import org.junit.jupiter.api.Test;

/** binding-async's catalog is what AsyncSettings reads beyond binding-sync's names. */
class AsyncPropertiesTest {
  private static Properties targeted() {
    Properties p = new Properties();
    p.setProperty(AsyncSettings.ROUTING, "targeted");
    p.setProperty(AsyncSettings.TARGETED_REFRESH, "3");
    p.setProperty(AsyncSettings.TARGETED_MONGOS_PREFIX + "shard01", "mongodb://eu-1:27017");
    p.setProperty(AsyncSettings.TARGETED_MONGOS, "shard02=mongodb://ap-1:27017");
    return p;
  }

  @Test
  void theCatalogIsWhatTheReaderReadsEvenWhenTargeted() {
    Set<String> read = RecordingProperties.namesReadBy(p -> AsyncSettings.fromProperties(p, List.of()),
        new Properties(), targeted()).stream()
        // A per-shard router's name is the user's: the catalog says it as the pattern.
        .map(name -> name.startsWith(AsyncSettings.TARGETED_MONGOS_PREFIX) ? AsyncSettings.TARGETED_MONGOS_PREFIX + "*" : name)
        .collect(Collectors.toCollection(TreeSet::new));
    read.removeAll(new MongoProperties().names());
    assertThat(new AsyncProperties().names()).containsExactlyInAnyOrderElementsOf(read);
  }

  @Test
  void theNamesAreTheRoutingsAsTheyWereListedByHand() {
    assertThat(new AsyncProperties().names()).containsExactlyInAnyOrder(AsyncSettings.ROUTING,
        AsyncSettings.TARGETED_REFRESH, AsyncSettings.TARGETED_MONGOS, AsyncSettings.TARGETED_MONGOS_PREFIX + "*");
  }
}
