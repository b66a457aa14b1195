package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.bson.Document;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.mongodb.MongoDBContainer;
import site.ycsb.ByteIterator;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/**
 * The deadline on real MongoDB: a server that holds a request (the {@code failCommand} fail point with
 * {@code blockConnection}, test commands enabled) makes it fail at {@code mongodb.timeout.ms}, as an
 * error of its operation, long before the server would answer; the next request, unblocked, succeeds.
 */
@Testcontainers(disabledWithoutDocker = true)
class TimeoutContainerTest {

  static List<String> images() {
    return MongoImages.images("mongo:8.0");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("images")
  void aRequestTheServerHoldsFailsAtItsDeadline(String image) throws Exception {
    // Testcontainers 2.x starts a standalone unless withReplicaSet() is called, which also makes it initiate
    // the set after the start (MongoDBContainer.containerIsStarted: rsEnabled); the command given after it
    // keeps its --replSet and adds the test commands that the failCommand fail point needs.
    try (MongoDBContainer mongo = new MongoDBContainer(image).withReplicaSet()
        .withCommand("--replSet", "docker-rs", "--setParameter", "enableTestCommands=1")) {
      mongo.start();
      String url = mongo.getConnectionString() + "/ycsb?directConnection=true";
      Properties p = new Properties();
      p.setProperty("mongodb.url", url);
      p.setProperty("mongodb.serverSelectionTimeout", "2");  // not above the deadline
      p.setProperty("mongodb.timeout.ms", "2000");
      MongoGeoBinding db = new MongoGeoBinding();
      db.setProperties(p);
      db.init();
      try (MongoClient admin = MongoClients.create(url)) {
        Map<String, ByteIterator> values = new HashMap<>();
        values.put("field0", new StringByteIterator("x"));
        assertThat(db.insert("usertable", "user1", values)).isEqualTo(Status.OK);
        admin.getDatabase("admin").runCommand(new Document("configureFailPoint", "failCommand")
            .append("mode", new Document("times", 1))
            .append("data", new Document("failCommands", List.of("find")).append("blockConnection", true)
                .append("blockTimeMS", 8000).append("appName", "geoshard")));
        long start = System.nanoTime();
        assertThat(db.read("usertable", "user1", null, new HashMap<>())).isEqualTo(Status.ERROR);
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(millis).as("ended by the deadline, not by the server's 8 s").isLessThan(6000);
        assertThat(db.read("usertable", "user1", null, new HashMap<>())).isEqualTo(Status.OK);
      } finally {
        db.cleanup();
      }
    }
  }
}
