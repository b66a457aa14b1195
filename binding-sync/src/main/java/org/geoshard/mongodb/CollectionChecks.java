package org.geoshard.mongodb;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoDatabase;
import java.util.ArrayList;
import java.util.List;
import org.bson.Document;
import org.geoshard.geo.contract.Restaurant;

/**
 * What must hold before the geo workload uses its collection: sharded on {@code mongodb.shardkey} when
 * one is set, and (for queries) a 2dsphere index on {@code location}. Each problem is one sentence
 * saying what to do. Read-only.
 */
public final class CollectionChecks {
  static final Document GEO_INDEX_KEY = new Document(Restaurant.LOCATION, "2dsphere");

  private CollectionChecks() {
  }

  /** The problem with the geo collection, or null when there is none. */
  public static String problem(MongoClient client, ServerFacts facts, MongoSettings settings, boolean forQueries) {
    String ns = settings.namespace();
    ShardKey wanted = settings.preparation().shardKey();
    if (wanted != null) {
      if (!facts.sharded()) {
        return notAMongos(settings, facts);
      }
      Document sharding = shardingOf(client, ns);
      if (sharding == null) {
        return "Collection " + ns + " is not sharded, but " + MongoSettings.SHARD_KEY + " is '" + wanted
            + "': prepare the cluster first (bin/ycsb prepare mongodb-geo -P <workload>, or a load with this binding), or unset "
            + MongoSettings.SHARD_KEY + ".";
      }
      Document key = sharding.get("key", Document.class);
      if (!wanted.matches(key)) {
        return "Collection " + ns + " is sharded on " + (key == null ? "an unknown key" : key.toJson()) + ", but "
            + MongoSettings.SHARD_KEY + " is '" + wanted + "': load it again with " + MongoSettings.DROP
            + "=true, or set " + MongoSettings.SHARD_KEY + " to match.";
      }
    }
    if (forQueries) {
      MongoDatabase db = client.getDatabase(settings.connection().database());
      if (!db.listCollectionNames().into(new ArrayList<>()).contains(settings.collection())) {
        return "Collection " + ns + " does not exist at " + settings.connection().maskedUrl()
            + ": load it first (bin/ycsb load mongodb-geo -P <workload>).";
      }
      if (!hasGeoIndex(db.getCollection(settings.collection()).listIndexes().into(new ArrayList<>()))) {
        return "Collection " + ns + " has no 2dsphere index on '" + Restaurant.LOCATION + "', which every near query needs: "
            + "build it with bin/ycsb prepare mongodb-geo --stage after-load -P <workload> (a load with this binding "
            + "builds it by itself).";
      }
    }
    return null;
  }

  static String notAMongos(MongoSettings settings, ServerFacts facts) {
    return notAMongos(MongoSettings.SHARD_KEY, settings.preparation().shardKey(), settings, facts);
  }

  /** @param property the property that names a shard key, {@code key} its value */
  static String notAMongos(String property, ShardKey key, MongoSettings settings, ServerFacts facts) {
    return "Property '" + property + "' is '" + key + "', but " + settings.connection().maskedUrl()
        + " is a " + facts.kind().label() + " server, not a mongos of a sharded cluster: connect to a mongos or unset "
        + property + ".";
  }

  /**
   * The collection's entry in {@code config.collections} (key, uuid, ...), or null when it is not
   * sharded: no entry, a dropped one (before 5.0), or an 8.0 "unsplittable" tracked collection (after
   * moveCollection or unshardCollection), which lives whole on one shard.
   */
  static Document shardingOf(MongoClient client, String namespace) {
    Document entry = client.getDatabase("config").getCollection("collections")
        .find(new Document("_id", namespace)).first();
    return CatalogRules.sharded(entry) ? entry : null;
  }

  static boolean hasGeoIndex(List<Document> indexes) {
    for (Document index : indexes) {
      Document key = index.get("key", Document.class);
      if (key != null && "2dsphere".equals(key.get(Restaurant.LOCATION))) {
        return true;
      }
    }
    return false;
  }
}
