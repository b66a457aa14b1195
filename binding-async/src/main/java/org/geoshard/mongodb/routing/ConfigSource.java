package org.geoshard.mongodb.routing;

import java.util.List;
import org.bson.BsonDocument;
import org.bson.BsonTimestamp;

/**
 * Reads the sharding catalog ({@code config.collections}, {@code config.chunks}, {@code config.shards})
 * through a router. Implementations may throw what their driver throws (no privilege, unreachable).
 */
public interface ConfigSource {
  /** The collection's document in {@code config.collections}, or null when it has none. */
  BsonDocument collection(String namespace);

  /**
   * The collection's chunks: by {@code uuid} when {@code collection} has a {@code timestamp} (5.0+),
   * else by {@code ns}.
   */
  List<BsonDocument> chunks(String namespace, BsonDocument collection);

  /** The newest {@code lastmod} of the collection's chunks (the collection version), or null. */
  BsonTimestamp newestLastmod(String namespace, BsonDocument collection);

  /** Every document of {@code config.shards}. */
  List<BsonDocument> shards();

  /** The filter on {@code config.chunks} for a collection, as MongoDB keys chunks since 5.0 and before. */
  static BsonDocument chunkFilter(String namespace, BsonDocument collection) {
    if (ConfigDocuments.chunksByUuid(collection)) {
      return new BsonDocument("uuid", collection.get("uuid"));
    }
    return new BsonDocument("ns", new org.bson.BsonString(namespace));
  }
}
