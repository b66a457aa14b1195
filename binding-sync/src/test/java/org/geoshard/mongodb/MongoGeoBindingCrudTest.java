package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import org.bson.Document;
import org.bson.types.Binary;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import site.ycsb.ByteIterator;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/** YCSB's five operations, as CoreWorkload calls them, against mongo-java-server through the real driver. */
class MongoGeoBindingCrudTest {
  private InProcessMongo mongo;
  private MongoGeoBinding db;

  @BeforeEach
  void start() throws Exception {
    mongo = new InProcessMongo();
  }

  @AfterEach
  void stop() throws Exception {
    if (db != null) {
      db.cleanup();
    }
    mongo.close();
    assertThat(LeftOpen.standaloneClients().openClients()).as("every client let go").isZero();
  }

  private MongoGeoBinding binding(String... pairs) throws Exception {
    MongoGeoBinding binding = new MongoGeoBinding();
    binding.setProperties(mongo.properties(pairs));
    binding.init();
    return binding;
  }

  private static Map<String, ByteIterator> fields(String... pairs) {
    Map<String, ByteIterator> values = new HashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      values.put(pairs[i], new StringByteIterator(pairs[i + 1]));
    }
    return values;
  }

  private static Map<String, String> strings(Map<String, ByteIterator> values) {
    Map<String, String> out = new HashMap<>();
    values.forEach((k, v) -> out.put(k, v.toString()));
    return out;
  }

  @Test
  void insertReadUpdateDelete() throws Exception {
    db = binding();
    assertThat(db.insert("usertable", "user1", fields("field0", "a", "field1", "b"))).isEqualTo(Status.OK);

    Map<String, ByteIterator> row = new HashMap<>();
    assertThat(db.read("usertable", "user1", null, row)).isEqualTo(Status.OK);
    assertThat(strings(row)).containsExactlyInAnyOrderEntriesOf(Map.of("field0", "a", "field1", "b"));

    row.clear();
    assertThat(db.read("usertable", "user1", Set.of("field1"), row)).isEqualTo(Status.OK);
    assertThat(strings(row)).containsExactly(Map.entry("field1", "b"));

    assertThat(db.update("usertable", "user1", fields("field0", "z"))).isEqualTo(Status.OK);
    row.clear();
    db.read("usertable", "user1", null, row);
    assertThat(strings(row)).containsEntry("field0", "z").containsEntry("field1", "b");

    assertThat(db.delete("usertable", "user1")).isEqualTo(Status.OK);
    assertThat(db.read("usertable", "user1", null, new HashMap<>())).isEqualTo(Status.NOT_FOUND);
    assertThat(db.update("usertable", "user1", fields("field0", "z"))).isEqualTo(Status.NOT_FOUND);
    assertThat(db.delete("usertable", "user1")).isEqualTo(Status.NOT_FOUND);
  }

  @Test
  void fieldsAreStoredAsBinaryUnderTheKey() throws Exception {
    db = binding();
    db.insert("usertable", "user7", fields("field0", "xyz"));
    Document stored;
    try (var client = com.mongodb.client.MongoClients.create(mongo.url("ycsb"))) {
      stored = client.getDatabase("ycsb").getCollection("usertable").find().first();
    }
    assertThat(stored).isNotNull();
    assertThat(stored.get("_id")).isEqualTo("user7");
    assertThat(stored.get("field0")).isEqualTo(new Binary("xyz".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
  }

  @Test
  void scanReadsInKeyOrderFromTheStartKey() throws Exception {
    db = binding();
    for (String key : List.of("user3", "user1", "user5", "user2", "user4")) {
      db.insert("usertable", key, fields("field0", key));
    }
    Vector<HashMap<String, ByteIterator>> result = new Vector<>();
    assertThat(db.scan("usertable", "user2", 3, null, result)).isEqualTo(Status.OK);
    assertThat(result).extracting(r -> r.get("field0").toString()).containsExactly("user2", "user3", "user4");
    result.clear();
    assertThat(db.scan("usertable", "user9", 3, null, result)).isEqualTo(Status.NOT_FOUND);
  }

  @Test
  void batchedInsertsBufferUntilTheBatchIsFullAndFlushAtCleanup() throws Exception {
    db = binding("batchsize", "3");
    assertThat(db.insert("usertable", "a", fields("f", "1"))).isEqualTo(Status.BATCHED_OK);
    assertThat(db.insert("usertable", "b", fields("f", "1"))).isEqualTo(Status.BATCHED_OK);
    assertThat(db.insert("usertable", "c", fields("f", "1"))).isEqualTo(Status.OK);
    assertThat(db.insert("usertable", "d", fields("f", "1"))).isEqualTo(Status.BATCHED_OK);
    MongoGeoBinding other = binding();
    assertThat(other.read("usertable", "c", null, new HashMap<>())).isEqualTo(Status.OK);
    assertThat(other.read("usertable", "d", null, new HashMap<>())).as("still buffered").isEqualTo(Status.NOT_FOUND);
    db.cleanup();
    db = null;
    assertThat(other.read("usertable", "d", null, new HashMap<>())).as("flushed at cleanup").isEqualTo(Status.OK);
    other.cleanup();
  }

  @Test
  void aDuplicateKeyIsAnErrorUnlessUpserting() throws Exception {
    db = binding();
    assertThat(db.insert("usertable", "dup", fields("f", "1"))).isEqualTo(Status.OK);
    assertThat(db.insert("usertable", "dup", fields("f", "2"))).isEqualTo(Status.ERROR);
    MongoGeoBinding upserting = binding("mongodb.upsert", "true");
    assertThat(upserting.insert("usertable", "dup", fields("f", "3"))).isEqualTo(Status.OK);
    Map<String, ByteIterator> row = new HashMap<>();
    upserting.read("usertable", "dup", null, row);
    assertThat(row.get("f").toString()).isEqualTo("3");
    upserting.cleanup();
  }

  @Test
  void batchedUpsertsReplaceExistingRecords() throws Exception {
    db = binding("batchsize", "2", "mongodb.upsert", "true");
    for (int round = 0; round < 2; round++) {
      assertThat(db.insert("usertable", "k1", fields("f", "r" + round))).isEqualTo(Status.BATCHED_OK);
      assertThat(db.insert("usertable", "k2", fields("f", "r" + round))).isEqualTo(Status.OK);
    }
    Map<String, ByteIterator> row = new HashMap<>();
    db.read("usertable", "k2", null, row);
    assertThat(row.get("f").toString()).isEqualTo("r1");
  }
}
