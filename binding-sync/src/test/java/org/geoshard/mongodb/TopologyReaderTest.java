package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import java.util.UUID;
import org.bson.BsonTimestamp;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The topology reads the catalog by the rule the routing tables use (CatalogRules), on every version's documents. */
class TopologyReaderTest {
  private InProcessMongo mongo;
  private MongoClient client;
  private MongoCollection<Document> collections;
  private MongoCollection<Document> chunks;

  @BeforeEach
  void start() {
    mongo = new InProcessMongo();
    client = MongoClients.create(mongo.url("ycsb"));
    collections = client.getDatabase("config").getCollection("collections");
    chunks = client.getDatabase("config").getCollection("chunks");
  }

  @AfterEach
  void stop() {
    client.close();
    mongo.close();
  }

  @Test
  void chunksOfAFcv44CollectionAreFoundByNamespaceEvenWithAUuid() {
    org.bson.BsonBinary uuid = new org.bson.BsonBinary(UUID.randomUUID());
    // A 4.4 (or FCV 4.4) catalog: the collection has a uuid but no timestamp, and its chunks name it by ns.
    collections.insertOne(new Document("_id", "ycsb.restaurants").append("key", new Document("Name", "hashed"))
        .append("uuid", uuid).append("lastmodEpoch", new org.bson.types.ObjectId()));
    for (String shard : new String[] {"s1", "s1", "s2"}) {
      chunks.insertOne(new Document("ns", "ycsb.restaurants").append("shard", shard));
    }
    Document sharding = CollectionChecks.shardingOf(client, "ycsb.restaurants");
    assertThat(TopologyReader.chunksPerShard(client, sharding)).containsEntry("s1", 2L).containsEntry("s2", 1L);
    // From FCV 5.0 the entry has a timestamp and chunks name it by uuid.
    collections.updateOne(new Document("_id", "ycsb.restaurants"),
        new Document("$set", new Document("timestamp", new BsonTimestamp(1, 1))));
    chunks.insertOne(new Document("uuid", uuid).append("shard", "s3"));
    assertThat(TopologyReader.chunksPerShard(client, CollectionChecks.shardingOf(client, "ycsb.restaurants")))
        .containsOnlyKeys("s3");
  }

  @Test
  void anUnsplittableTrackedCollectionIsNotSharded() {
    collections.insertOne(new Document("_id", "ycsb.restaurants").append("key", new Document("_id", 1))
        .append("unsplittable", true).append("timestamp", new BsonTimestamp(1, 1)).append("uuid", new org.bson.BsonBinary(UUID.randomUUID())));
    assertThat(CollectionChecks.shardingOf(client, "ycsb.restaurants")).isNull();
    collections.insertOne(new Document("_id", "ycsb.sharded").append("key", new Document("_id", "hashed")));
    assertThat(CollectionChecks.shardingOf(client, "ycsb.sharded")).isNotNull();
    collections.insertOne(new Document("_id", "ycsb.dropped").append("key", new Document("_id", 1)).append("dropped", true));
    assertThat(CollectionChecks.shardingOf(client, "ycsb.dropped")).isNull();
  }
}
