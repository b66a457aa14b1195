package org.geoshard.mongodb.async;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import java.util.ArrayList;
import java.util.List;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.BsonTimestamp;
import org.bson.BsonValue;
import org.geoshard.mongodb.routing.ConfigSource;

/** The sharding catalog read through the default router with the sync driver's shared client. */
final class SyncConfigSource implements ConfigSource {
  private final MongoClient client;

  SyncConfigSource(MongoClient client) {
    this.client = client;
  }

  private MongoCollection<BsonDocument> config(String name) {
    return client.getDatabase("config").getCollection(name, BsonDocument.class);
  }

  @Override
  public BsonDocument collection(String namespace) {
    return config("collections").find(new BsonDocument("_id", new BsonString(namespace))).first();
  }

  @Override
  public List<BsonDocument> chunks(String namespace, BsonDocument collection) {
    return config("chunks").find(ConfigSource.chunkFilter(namespace, collection))
        .projection(new BsonDocument("min", new BsonInt32(1)).append("max", new BsonInt32(1))
            .append("shard", new BsonInt32(1)).append("lastmod", new BsonInt32(1)).append("uuid", new BsonInt32(1))
            .append("ns", new BsonInt32(1)))
        .into(new ArrayList<>());
  }

  @Override
  public BsonTimestamp newestLastmod(String namespace, BsonDocument collection) {
    BsonDocument newest = config("chunks").find(ConfigSource.chunkFilter(namespace, collection))
        .sort(new BsonDocument("lastmod", new BsonInt32(-1))).limit(1)
        .projection(new BsonDocument("lastmod", new BsonInt32(1))).first();
    BsonValue lastmod = newest == null ? null : newest.get("lastmod");
    return lastmod != null && lastmod.isTimestamp() ? lastmod.asTimestamp() : null;
  }

  @Override
  public List<BsonDocument> shards() {
    return config("shards").find().into(new ArrayList<>());
  }
}
