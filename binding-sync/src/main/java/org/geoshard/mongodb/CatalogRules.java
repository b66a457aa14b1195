package org.geoshard.mongodb;

import java.util.Map;
import org.bson.BsonBoolean;

/**
 * How to read a {@code config.collections} entry, in one place for the topology report (binding-sync)
 * and the routing tables (binding-async), for every server from 4.4 to 8.0. Works on both document
 * kinds ({@code Document} and {@code BsonDocument} are maps).
 */
public final class CatalogRules {
  private CatalogRules() {
  }

  /**
   * True when the entry describes a sharded collection: it has a key, and is neither dropped (catalogs
   * before 5.0 keep dropped ones) nor "unsplittable" (8.0 tracks a collection moved with moveCollection
   * or unsharded with unshardCollection under a {@code _id} key, whole on one shard: not sharded).
   */
  public static boolean sharded(Map<String, ?> collection) {
    return collection != null && collection.containsKey("key") && !flag(collection, "dropped")
        && !flag(collection, "unsplittable");
  }

  /**
   * True when {@code config.chunks} names the collection's chunks by its uuid: once the entry has a
   * {@code timestamp} (FCV 5.0 and later); before (4.4, or FCV 4.4) by ns, even though a uuid exists.
   */
  public static boolean chunksByUuid(Map<String, ?> collection) {
    return collection != null && collection.containsKey("timestamp") && collection.containsKey("uuid");
  }

  private static boolean flag(Map<String, ?> document, String name) {
    Object v = document.get(name);
    return Boolean.TRUE.equals(v) || BsonBoolean.TRUE.equals(v);
  }
}
