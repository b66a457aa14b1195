package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import java.util.List;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What presplit a key gets, decided by the FCV (not the binary), and said in run.json's words. */
class ClusterPreparationTest {
  private InProcessMongo mongo;
  private MongoClient client;

  @BeforeEach
  void start() {
    mongo = new InProcessMongo();
    client = MongoClients.create(mongo.url("ycsb"));
  }

  @AfterEach
  void stop() {
    client.close();
    mongo.close();
  }

  private String presplit(String binary, String fcv, String key, Integer chunks, Document command) throws Exception {
    ServerFacts facts = new ServerFacts(ServerVersion.parse(binary), ServerFacts.Kind.SHARDED, null, List.of(),
        fcv == null ? null : ServerVersion.parse(fcv));
    MongoSettings.Builder b = MongoSettings.builder().applyToConnection(c -> c.url(mongo.url("ycsb")))
        .applyToPreparation(p -> p.shardKey(ShardKey.of(key)));
    if (chunks != null) {
      b.applyToPreparation(p -> p.numInitialChunks(chunks));
    }
    return new ClusterPreparation(client, facts, b.build()).presplit(ShardKey.of(key), true, command);
  }

  @Test
  void numInitialChunksIsSentWhereTheFeatureVersionHonoursIt() throws Exception {
    Document command = new Document();
    assertThat(presplit("7.0.12", null, "Name:hashed", 12, command)).startsWith("12 chunks");
    assertThat(command).containsEntry("numInitialChunks", 12);
    // An 8.0 binary still at FCV 7.0 behaves as 7.0.
    Document downgraded = new Document();
    assertThat(presplit("8.0.4", "7.0", "Name:hashed", 12, downgraded)).startsWith("12 chunks");
    assertThat(downgraded).containsKey("numInitialChunks");
    Document upgraded = new Document();
    assertThat(presplit("8.0.4", "8.0", "Name:hashed", 12, upgraded)).startsWith("one chunk per shard")
        .contains("FCV 8.0");
    assertThat(upgraded).doesNotContainKey("numInitialChunks");
  }

  @Test
  void aCompoundKeyWithARangedFirstFieldStartsAsOneChunk() throws Exception {
    Document command = new Document();
    assertThat(presplit("7.0.12", null, "City:1,_id:hashed", null, command))
        .startsWith("none: a compound key whose first field is ranged starts as one chunk on the primary shard");
    assertThat(command).isEmpty();
  }

  @Test
  void serverFactsTellTheFeatureVersionApartFromTheBinary() {
    ServerFacts facts = new ServerFacts(ServerVersion.parse("8.0.4"), ServerFacts.Kind.SHARDED, null, List.of(),
        ServerVersion.parse("7.0"));
    assertThat(facts.featureVersion()).isEqualTo(ServerVersion.parse("7.0"));
    assertThat(facts.describe()).isEqualTo("8.0.4 (FCV 7.0) sharded");
    assertThat(ServerFacts.read(client).featureVersion()).as("unknown FCV: the binary decides")
        .isEqualTo(ServerFacts.read(client).version());
  }
}
