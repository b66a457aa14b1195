package org.geoshard.mongodb;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import java.util.Map;

/**
 * For the Docker suites of other modules (binding-async): a collection sharded by the binding's own
 * preparation ({@link ClusterPreparation#shard}), the one path for enableSharding, shardCollection and
 * presplit that {@link LayoutCommandsTest} checks for every version, instead of commands of the test's own.
 */
public final class PreparedCollections {
  private PreparedCollections() {
  }

  /**
   * Creates and shards {@code collection} of the URL's database on {@code key} (e.g. {@code _id:hashed}),
   * returning what the preparation recorded (as run.json would).
   */
  public static Map<String, Object> sharded(String url, String collection, String key) throws Exception {
    MongoSettings settings = MongoSettings.builder().applyToConnection(c -> c.url(url)).build();
    try (MongoClient client = MongoClients.create(url)) {
      ClusterPreparation preparation = new ClusterPreparation(client, ServerFacts.read(client), settings);
      preparation.create(collection);
      return preparation.shard(collection, ShardKey.of(key), "the test's key");
    }
  }
}
