package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.bson.BsonDocument;
import org.bson.Document;
import org.geoshard.geo.contract.GeoQuery;
import org.junit.jupiter.api.Test;

/**
 * What the driver puts on the wire for each query shape is the golden command: filter, skip and limit
 * as {@link NearQueryTest} pins them. mongo-java-server receives the commands and rejects
 * {@code $nearSphere} (it has no geo engine); only the commands sent are checked here. Answers are
 * checked against real MongoDB in {@link StandaloneNearContainerTest}.
 */
class NearQueryWireTest {
  @Test
  void theDriverSendsTheGoldenCommands() throws Exception {
    List<BsonDocument> finds = new CopyOnWriteArrayList<>();
    CommandListener listener = new CommandListener() {
      @Override
      public void commandStarted(CommandStartedEvent event) {
        if (event.getCommandName().equals("find")) {
          finds.add(event.getCommand().clone());
        }
      }
    };
    try (InProcessMongo mongo = new InProcessMongo(); MongoClient client = MongoClients.create(mongo.url("ycsb"))) {
      client.getDatabase("ycsb").getCollection("restaurants").createIndex(new Document("location", "2dsphere"));
      MongoGeoBinding db = new MongoGeoBinding(List.of(listener));
      db.setProperties(mongo.properties());
      db.init();
      try {
        for (Map.Entry<String, GeoQuery> shape : NearQueryTest.shapes().entrySet()) {
          finds.clear();
          db.near(shape.getValue(), new ArrayList<>());
          assertThat(finds).as(shape.getKey()).hasSize(1);
          BsonDocument sent = finds.get(0);
          BsonDocument golden = BsonDocument.parse(Files.readString(Path.of("src/test/resources/golden", shape.getKey() + ".json")));
          assertThat(sent.getString("find")).isEqualTo(golden.getString("find"));
          assertThat(sent.getDocument("filter")).as(shape.getKey()).isEqualTo(golden.getDocument("filter"));
          assertThat(sent.get("skip")).as(shape.getKey()).isEqualTo(golden.get("skip"));
          assertThat(sent.get("limit")).as(shape.getKey()).isEqualTo(golden.get("limit"));
          assertThat(sent.containsKey("sort")).as("$nearSphere sorts by itself").isFalse();
        }
      } finally {
        db.cleanup();
      }
    }
  }
}
