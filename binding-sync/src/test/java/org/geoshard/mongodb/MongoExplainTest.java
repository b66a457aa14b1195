package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.bson.Document;
import org.geoshard.harness.api.ExplainsOperations.QueryExplain;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.output.RunResult;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.Runner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.workloads.CoreWorkload;

/**
 * Explain answers in the shapes MongoDB's manual documents ("Explain Results": sharded collections
 * through a mongos, and a single server), cut to the fields read; and the binding against the
 * in-process wire server.
 */
class MongoExplainTest {
  @TempDir
  Path dir;

  /** A $nearSphere query through a mongos on a collection sharded by a hashed key: every shard answers. */
  static final String SHARD_MERGE = """
      {"queryPlanner": {"mongosPlannerVersion": 1, "winningPlan": {"stage": "SHARD_MERGE", "shards": [
         {"shardName": "rs0", "connectionString": "rs0/shard0:27018", "winningPlan": {"stage": "GEO_NEAR_2DSPHERE"}},
         {"shardName": "rs1", "connectionString": "rs1/shard1:27018", "winningPlan": {"stage": "GEO_NEAR_2DSPHERE"}},
         {"shardName": "rs2", "connectionString": "rs2/shard2:27018", "winningPlan": {"stage": "GEO_NEAR_2DSPHERE"}}]}},
       "executionStats": {"nReturned": 10, "executionTimeMillis": 7, "totalKeysExamined": 412,
         "totalDocsExamined": 96, "executionStages": {"stage": "SHARD_MERGE", "nReturned": 10,
         "executionTimeMillis": 7, "totalKeysExamined": 412, "totalDocsExamined": 96, "totalChildMillis": 12,
         "shards": [
           {"shardName": "rs0", "executionSuccess": true, "nReturned": 10, "totalDocsExamined": 31},
           {"shardName": "rs1", "executionSuccess": true, "nReturned": 10, "totalDocsExamined": 33},
           {"shardName": "rs2", "executionSuccess": true, "nReturned": 10, "totalDocsExamined": 32}]}},
       "ok": 1}
      """;

  /** A query the mongos sends to the one shard owning its key. */
  static final String SINGLE_SHARD = """
      {"queryPlanner": {"winningPlan": {"stage": "SINGLE_SHARD", "shards": [{"shardName": "rs1"}]}},
       "executionStats": {"nReturned": 1, "executionTimeMillis": 0, "totalKeysExamined": 1, "totalDocsExamined": 1,
         "executionStages": {"stage": "SINGLE_SHARD", "shards": [{"shardName": "rs1", "nReturned": 1}]}},
       "ok": 1}
      """;

  /** One server, no shards: the planner's and the executor's stages, and serverInfo. */
  static final String STANDALONE = """
      {"queryPlanner": {"namespace": "ycsb.restaurants", "winningPlan": {"stage": "LIMIT", "inputStage":
         {"stage": "GEO_NEAR_2DSPHERE"}}},
       "executionStats": {"executionSuccess": true, "nReturned": 10, "executionTimeMillis": 2,
         "totalKeysExamined": 120, "totalDocsExamined": 25, "executionStages": {"stage": "LIMIT"}},
       "serverInfo": {"host": "db1", "port": 27017, "version": "7.0.14"}, "ok": 1}
      """;

  @Test
  void throughAMongosEveryShardThatTookPartIsATargetAndDocumentsAddUpOverThem() {
    QueryExplain e = MongoExplain.parse(Document.parse(SHARD_MERGE));
    assertThat(e.targets()).containsExactly("rs0", "rs1", "rs2");
    assertThat(e.examined()).isEqualTo(96);
    assertThat(e.returned()).isEqualTo(10);
    assertThat(e.details()).containsEntry("stage", "SHARD_MERGE").containsEntry("totalKeysExamined", 412L);
  }

  @Test
  void aTargetedQueryHasOneShard() {
    QueryExplain e = MongoExplain.parse(Document.parse(SINGLE_SHARD));
    assertThat(e.targets()).containsExactly("rs1");
    assertThat(e.details()).containsEntry("stage", "SINGLE_SHARD");
  }

  @Test
  void aSingleServerIsTheOneTarget() {
    QueryExplain e = MongoExplain.parse(Document.parse(STANDALONE));
    assertThat(e.targets()).containsExactly("db1:27017");
    assertThat(e.examined()).isEqualTo(25);
    assertThat(e.returned()).isEqualTo(10);
  }

  @Test
  void anAnswerWithoutExecutionStatsIsRefused() {
    assertThatThrownBy(() -> MongoExplain.parse(Document.parse("{\"queryPlanner\": {}, \"ok\": 1}")))
        .hasMessageContaining("executionStats");
  }

  @Test
  void theBindingExplainsItsLastQueryAsAFindCommand() throws Exception {
    assertThat(MongoExplain.command(new Document("find", "usertable").append("filter", new Document("_id", "u1"))))
        .isEqualTo(Document.parse("{\"explain\": {\"find\": \"usertable\", \"filter\": {\"_id\": \"u1\"}},"
            + " \"verbosity\": \"executionStats\"}"));
    try (InProcessMongo mongo = new InProcessMongo(); MongoClient client = MongoClients.create(mongo.url("ycsb"))) {
      client.getDatabase("ycsb").getCollection("usertable").insertOne(new Document("_id", "u1").append("field0", "x"));
      Properties p = mongo.properties();
      MongoGeoBinding db = new MongoGeoBinding();
      db.setProperties(p);
      db.init();
      try {
        assertThat(db.explainLast()).as("nothing sent yet").isEmpty();
        Map<String, ByteIterator> row = new HashMap<>();
        assertThat(db.read("usertable", "u1", null, row)).isEqualTo(Status.OK);
        // The wire server has no explain command: the binding says which query and why, in one exception.
        assertThatThrownBy(db::explainLast).isInstanceOf(DBException.class)
            .hasMessageContaining("Could not explain a usertable query").hasMessageContaining("explain");
      } finally {
        db.cleanup();
      }
    }
  }

  @Test
  void aServerThatCannotExplainCostsTheRunNothingButACount() throws Exception {
    try (InProcessMongo mongo = new InProcessMongo(); MongoClient client = MongoClients.create(mongo.url("ycsb"))) {
      for (int i = 0; i < 50; i++) {
        client.getDatabase("ycsb").getCollection("usertable").insertOne(new Document("_id", "user" + i)
            .append("field0", "x"));
      }
      Properties p = mongo.properties();
      p.setProperty("workload", CoreWorkload.class.getName());
      p.setProperty("recordcount", "50");
      p.setProperty("operationcount", "300");
      p.setProperty("readproportion", "1");
      p.setProperty("updateproportion", "0");
      p.setProperty("requestdistribution", "uniform");
      p.setProperty("insertorder", "ordered");  // keys user0..user49, as inserted above
      p.setProperty("status.interval", "0");
      p.setProperty("results.dir", dir.resolve("run").toString());
      RunResult result = new Runner(RunSettings.fromProperties(Phase.RUN, p, "x"), p,
          new Binding("mongodb-geo", MongoGeoBinding.class), dir).execute();
      assertThat(result.errors()).isZero();
      JsonNode targeting = new ObjectMapper().readTree(result.folder().resolve("run.json").toFile())
          .path("queryTargeting");
      assertThat(targeting.path("failures").asInt()).isPositive();
      assertThat(targeting.path("operations").size()).isZero();
    }
  }
}
