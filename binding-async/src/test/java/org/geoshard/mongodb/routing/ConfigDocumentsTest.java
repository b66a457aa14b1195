package org.geoshard.mongodb.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.bson.BsonBoolean;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonMaxKey;
import org.bson.BsonMinKey;
import org.bson.BsonString;
import org.bson.BsonTimestamp;
import org.bson.BsonValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Routing tables from the catalogs of MongoDB 5.0 (ns and uuid), 6.0, 7.0 and 8.0. */
class ConfigDocumentsTest {

  static List<String> hashed() {
    return Fixtures.HASHED;
  }

  /** A key owned by each of the three presplit chunks, by the published vectors: 42 hashes into the middle one. */
  private static BsonValue[] key(String ycsbKey) {
    return new BsonValue[] {ShardKeyHash.hashed(new BsonString(ycsbKey))};
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("hashed")
  void parsesEveryVersionsCatalog(String name) {
    Fixtures f = Fixtures.load(name);
    RoutingTable table = f.table();
    BsonDocument expected = f.expected();
    assertThat(table.sharded()).isTrue();
    assertThat(table.pattern().toDocument()).isEqualTo(new BsonDocument("_id", new BsonString("hashed")));
    assertThat(table.chunksByUuid()).isEqualTo(expected.getString("chunksBy").getValue().equals("uuid"));
    assertThat(table.chunks()).hasSize(3);  // the sessions collection's chunk is not ours
    assertThat(table.chunksPerShard().values()).containsOnly(1);
    BsonDocument owners = expected.getDocument("owners");
    // The first chunk starts at MinKey, the middle one holds the hash of 42 (-944302157085130861), the last ends at MaxKey.
    assertThat(table.shardOf(new BsonValue[] {new BsonMinKey()})).isEqualTo(owners.getString("min").getValue());
    assertThat(table.shardOf(new BsonValue[] {ShardKeyHash.hashed(new BsonInt32(42))}))
        .isEqualTo(owners.getString("middle").getValue());
    assertThat(table.shardOf(new BsonValue[] {new BsonInt64(Long.MAX_VALUE)})).isEqualTo(owners.getString("max").getValue());
    assertThat(table.shardOf(new BsonValue[] {new BsonInt64(-3074457345618258602L)})).isEqualTo(owners.getString("middle").getValue());
    assertThat(table.shardOf(new BsonValue[] {new BsonInt64(-3074457345618258603L)})).isEqualTo(owners.getString("min").getValue());
    assertThat(table.version()).isEqualTo(f.source().newestLastmod(f.namespace(), f.collection()));
    assertThat(table.shardHosts()).containsKeys(owners.getString("min").getValue(), owners.getString("max").getValue());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("hashed")
  void shuffledDocumentsGiveTheSameTable(String name) {
    Fixtures f = Fixtures.load(name);
    RoutingTable reference = f.table();
    Random random = new Random(name.hashCode());
    for (int round = 0; round < 10; round++) {
      List<BsonDocument> chunks = new ArrayList<>(f.chunks());
      List<BsonDocument> shards = new ArrayList<>(f.shards());
      Collections.shuffle(chunks, random);
      Collections.shuffle(shards, random);
      RoutingTable table = ConfigDocuments.parse(f.namespace(), f.collection(), chunks, shards);
      for (int k = 0; k < 300; k++) {
        BsonValue[] key = key("user" + random.nextInt(1_000_000));
        assertThat(table.shardOf(key)).isEqualTo(reference.shardOf(key));
      }
      assertThat(table.version()).isEqualTo(reference.version());
    }
  }

  @Test
  void theSourceReadsChunksByUuidOrByNs() {
    Fixtures ns = Fixtures.load("config-5.0-ns");
    Fixtures uuid = Fixtures.load("config-5.0-uuid");
    assertThat(ConfigSource.chunkFilter(ns.namespace(), ns.collection()).getFirstKey()).isEqualTo("ns");
    assertThat(ConfigSource.chunkFilter(uuid.namespace(), uuid.collection()).getFirstKey()).isEqualTo("uuid");
    for (Fixtures f : List.of(ns, uuid)) {
      RoutingTable loaded = ConfigDocuments.load(f.source(), f.namespace());
      assertThat(loaded.chunks()).hasSize(3);
      assertThat(loaded.version()).isEqualTo(f.source().newestLastmod(f.namespace(), f.collection()));
    }
  }

  @Test
  void rangedCompoundKeyRoutesFullKeysAndPrefixes() {
    Fixtures f = Fixtures.load("config-7.0-ranged");
    RoutingTable table = f.table();
    assertThat(table.pattern().toString()).isEqualTo("{\"City\": 1, \"_id\": 1}");
    assertThat(table.chunks()).hasSize(4);
    assertThat(table.ownerOf(new BsonValue[] {new BsonString("Berlin")})).isEqualTo("shard-us");
    assertThat(table.ownerOf(new BsonValue[] {new BsonString("Lyon")})).isNull();  // spans shard-eu and shard-ap
    assertThat(table.ownerOf(new BsonValue[] {new BsonString("Lyon"), new BsonInt64(42)})).isEqualTo("shard-eu");
    assertThat(table.ownerOf(new BsonValue[] {new BsonString("Lyon"), new BsonInt32(5000)})).isEqualTo("shard-ap");
    assertThat(table.ownerOf(new BsonValue[] {new BsonString("Lyon"), new BsonInt64(4999)})).isEqualTo("shard-eu");
    assertThat(table.ownerOf(new BsonValue[] {new BsonString("Marseille")})).isEqualTo("shard-ap");
    assertThat(table.ownerOf(new BsonValue[] {new BsonString("Paris")})).isEqualTo("shard-us");
    assertThat(table.ownerOf(new BsonValue[] {new BsonString("Zürich"), new BsonInt64(1)})).isEqualTo("shard-us");
    assertThat(table.ownerOf(new BsonValue[] {new BsonInt32(7)})).isEqualTo("shard-us");  // numbers sort before strings
    assertThat(table.ownerOf(new BsonValue[0])).isNull();
    // Keys from documents: a missing field is null, which sorts first.
    ShardKeyPattern p = table.pattern();
    assertThat(table.ownerOf(p.ofDocument(new org.bson.Document("City", "Lyon").append("_id", 6000L)))).isEqualTo("shard-ap");
    assertThat(table.ownerOf(p.ofDocument(new org.bson.Document("_id", 6000L)))).isEqualTo("shard-us");
    assertThat(table.ownerOf(p.ofFilter(new org.bson.Document("City", "Lyon").append("_id", new org.bson.Document("$gt", 3)))))
        .isNull();
    assertThat(table.ownerOf(p.ofFilter(new org.bson.Document("City", new org.bson.Document("$eq", "Nice")))))
        .isEqualTo("shard-ap");
  }

  @Test
  void unshardedDroppedAndBrokenCatalogs() {
    Fixtures f = Fixtures.load("config-6.0");
    assertThat(ConfigDocuments.parse("ycsb.other", null, f.chunks(), f.shards()).sharded()).isFalse();
    BsonDocument dropped = f.collection().clone().append("dropped", BsonBoolean.TRUE);
    assertThat(ConfigDocuments.parse(f.namespace(), dropped, f.chunks(), f.shards()).sharded()).isFalse();
    List<BsonDocument> gap = f.chunks().stream()
        .filter(c -> !(c.getDocument("min").get("_id") instanceof BsonMinKey) || !c.containsKey("uuid")
            || !c.get("uuid").equals(f.collection().get("uuid")))
        .toList();
    assertThatThrownBy(() -> ConfigDocuments.parse(f.namespace(), f.collection(), gap, f.shards()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("MinKey");
    List<BsonDocument> shifted = new ArrayList<>();
    for (BsonDocument c : f.chunks()) {
      BsonDocument copy = c.clone();
      if (copy.getDocument("max").get("_id") instanceof BsonMaxKey && copy.get("uuid").equals(f.collection().get("uuid"))) {
        copy.put("max", new BsonDocument("_id", new BsonInt64(5)));
      }
      shifted.add(copy);
    }
    assertThatThrownBy(() -> ConfigDocuments.parse(f.namespace(), f.collection(), shifted, f.shards()))
        .hasMessageContaining("MaxKey");
  }

  @Test
  void aNewVersionOrCollectionIsNoticed() {
    Fixtures f = Fixtures.load("config-8.0");
    RoutingTable table = f.table();
    assertThat(ConfigDocuments.sameCollection(table, f.collection())).isTrue();
    BsonDocument recreated = f.collection().clone().append("timestamp", new BsonTimestamp(1730009999, 1));
    assertThat(ConfigDocuments.sameCollection(table, recreated)).isFalse();
    BsonDocument rekeyed = f.collection().clone().append("key", new BsonDocument("_id", new BsonInt32(1)));
    assertThat(ConfigDocuments.sameCollection(table, rekeyed)).isFalse();
    assertThat(ConfigDocuments.sameCollection(table, null)).isFalse();
    assertThat(ConfigDocuments.newer(new BsonTimestamp(2, 0), new BsonTimestamp(1, 9))).isEqualTo(new BsonTimestamp(2, 0));
  }
}
