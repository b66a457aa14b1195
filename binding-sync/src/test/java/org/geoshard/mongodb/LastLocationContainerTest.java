package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.bson.Document;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.output.RunResult;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.Runner;
import org.geoshard.lastlocation.LastLocationWorkload;
import org.geoshard.lastlocation.contract.LocationEvent;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.mongodb.MongoDBContainer;
import org.testcontainers.utility.DockerImageName;
import site.ycsb.Status;

/**
 * The location stream on real MongoDB (pinned images), prepared, loaded and run through the harness
 * with 20% late events and a daily time split: every user's last known location is its newest event,
 * History holds every event once, and the near query finds users by their last location. Skipped
 * where no Docker engine runs.
 */
@Testcontainers(disabledWithoutDocker = true)
class LastLocationContainerTest {
  @TempDir
  Path dir;

  static List<String> images() {
    return MongoImages.images("mongo:7.0", "mongo:8.0");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("images")
  void theStreamKeepsEveryUsersNewestLocation(String image) throws Exception {
    try (MongoDBContainer container = new MongoDBContainer(DockerImageName.parse(image))) {
      container.start();
      check(image, container.getConnectionString() + "/ycsb", new Properties());
    }
  }

  /**
   * On a sharded cluster, with the History and LastKnownLocation collections sharded (LKL on
   * {@code _id:hashed}, the key the conditional upsert needs): still one document per user, its newest.
   */
  @ParameterizedTest(name = "{0}, 2 shards")
  @MethodSource("images")
  void theStreamKeepsEveryUsersNewestLocationOnAShardedCluster(String image) throws Exception {
    try (ThrowawayCluster cluster = ThrowawayCluster.start(2, image, false)) {
      Properties sharding = new Properties();
      sharding.setProperty("mongodb.ll.lkl.shardkey", "_id:hashed");
      sharding.setProperty("mongodb.ll.history.shardkey", "UserId:1,Timestamp:1");
      check(image + "-sharded", cluster.url("ycsb"), sharding);
    }
  }

  /**
   * The LastKnownLocation key {@code _id:1,CellId:1} on every version: each write names the whole key
   * ({@link WholeKeyUpsert}), which every FCV accepts for an upsert (SERVER-1689) and a key change
   * (manual, "Change a Document's Shard Key Value"), so the plain upsert's refusal before 7.0 and
   * SERVER-106069 from 7.0 are both avoided. With {@code ll.move} at its default (0.3) users change cells,
   * and each ends with one document, its newest event's time and cell.
   */
  @ParameterizedTest(name = "{0}, 2 shards, LKL on _id:1,CellId:1")
  @MethodSource("images")
  void anLklKeyBeyondIdKeepsEveryUsersNewestLocationOnEveryVersion(String image) throws Exception {
    try (ThrowawayCluster cluster = ThrowawayCluster.start(2, image, false)) {
      Properties sharding = new Properties();
      sharding.setProperty("mongodb.ll.lkl.shardkey", "_id:1,CellId:1");
      check(image + "-lkl-key", cluster.url("ycsb"), sharding);
    }
  }

  private Properties properties(String label, String url, Properties extra) {
    Properties p = new Properties();
    p.putAll(extra);
    p.setProperty("mongodb.url", url);
    p.setProperty("mongodb.serverSelectionTimeout", "30");
    p.setProperty("mongodb.drop", "true");
    p.setProperty("workload", LastLocationWorkload.class.getName());
    p.setProperty("ll.users", "500");
    p.setProperty("ll.cells", "200");
    p.setProperty("ll.writers", "2");
    p.setProperty("ll.outoforder", "0.2");
    p.setProperty("ll.history.split", "day");
    p.setProperty("ll.history.batchsize", "13");
    p.setProperty("ll.insert.rate", "1000");
    p.setProperty("ll.read.proportion.lkl", "0.5");
    p.setProperty("ll.read.proportion.range", "0.3");
    p.setProperty("ll.read.proportion.near", "0.2");
    p.setProperty("threadcount", "2");
    p.setProperty("operationcount", "0");
    p.setProperty("status.interval", "0");
    p.setProperty("results.dir", dir.resolve(label.replace(':', '_') + "-load").toString());
    return p;
  }

  private void check(String image, String url, Properties extra) throws Exception {
    {
      Properties p = properties(image, url, extra);
      RunResult load = new Runner(RunSettings.fromProperties(Phase.LOAD, p, "ll"), p,
          new Binding("mongodb-geo", MongoGeoBinding.class), dir).execute();
      assertThat(load.hasFailures()).as("load").isFalse();
      p.setProperty("mongodb.drop", "false");
      p.setProperty("maxexecutiontime", "5");  // the run only: a time limit must not cut the load short
      p.setProperty("results.dir", dir.resolve(image.replace(':', '_') + "-run").toString());
      RunResult run = new Runner(RunSettings.fromProperties(Phase.RUN, p, "ll"), p,
          new Binding("mongodb-geo", MongoGeoBinding.class), dir).execute();
      assertThat(run.errors()).isZero();
      assertThat(run.perOperation()).containsKeys("LKL_READ", "HISTORY_RANGE", "LKL_NEAR", "LKL_STALE");
      long appended = run.perOperation().get("HISTORY_INSERT").count();

      try (MongoClient client = MongoClients.create(url)) {
        MongoDatabase db = client.getDatabase("ycsb");
        long stored = 0;
        Map<String, Long> newest = new HashMap<>();
        Map<String, Set<Integer>> newestCells = new HashMap<>();
        for (String name : db.listCollectionNames()) {
          if (name.startsWith("history_")) {
            for (Document d : db.getCollection(name).find()) {
              stored++;
              String user = d.getString("UserId");
              long t = d.getLong("Timestamp");
              long before = newest.getOrDefault(user, Long.MIN_VALUE);
              if (t > before) {
                newestCells.put(user, new HashSet<>());
              }
              if (t >= before) {
                newest.put(user, t);
                newestCells.get(user).add(d.getInteger("CellId"));
              }
            }
          }
        }
        assertThat(stored).isEqualTo(500 + appended);
        List<Document> lkl = db.getCollection("lastknownlocation").find().into(new ArrayList<>());
        assertThat(lkl).hasSize(500);
        lkl.forEach(d -> assertThat(d.getLong("T")).isEqualTo(newest.get(d.getString("_id"))));
        lkl.forEach(d -> assertThat(newestCells.get(d.getString("_id"))).as("the cell of %s", d.get("_id"))
            .contains(d.getInteger("CellId")));
        Document any = lkl.get(0);
        LocationEvent last = LastLocationDocuments.fromLastKnown(any);
        MongoGeoBinding binding = new MongoGeoBinding();
        binding.setProperties(p);
        binding.init();
        try {
          List<LocationEvent> near = new ArrayList<>();
          assertThat(binding.usersNear(last.longitude(), last.latitude(), 100, 1000, near)).isEqualTo(Status.OK);
          assertThat(near).extracting(LocationEvent::userId).contains(last.userId());
        } finally {
          binding.cleanup();
        }
      }
    }
  }
}
