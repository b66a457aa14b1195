package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.geoshard.geo.GeoWorkload;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.output.RunResult;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.Runner;
import org.geoshard.harness.measure.StopReason;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.ByteIterator;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;
import org.junit.jupiter.api.Test;

/**
 * A server that goes away: the operations fail meanwhile and work again once it is back on the same port;
 * a load whose server never comes back gives up by itself (the harness's {@code giveup.s}).
 */
class ReconnectTest {
  @TempDir
  Path dir;

  private static Map<String, ByteIterator> fields(String value) {
    Map<String, ByteIterator> values = new HashMap<>();
    values.put("field0", new StringByteIterator(value));
    return values;
  }

  @Test
  void operationsFailWhileTheServerIsDownAndSucceedOnceItIsBack() throws Exception {
    InProcessMongo first = new InProcessMongo();
    int port = first.port();
    MongoGeoBinding db = new MongoGeoBinding();
    db.setProperties(first.properties("mongodb.timeout.ms", "3000"));
    db.init();
    try {
      assertThat(db.insert("usertable", "user1", fields("a"))).isEqualTo(Status.OK);
      first.close();  // killed: the in-memory data is gone with it
      assertThat(db.insert("usertable", "user2", fields("b"))).as("while down").isEqualTo(Status.ERROR);
      assertThat(db.read("usertable", "user1", null, new HashMap<>())).as("while down").isEqualTo(Status.ERROR);
      try (InProcessMongo second = new InProcessMongo(port, false)) {
        // The driver finds the server again by itself (dropping the connections to the old one as it meets
        // them); allow it several deadlines to settle: three successes in a row.
        int inARow = 0;
        long giveUp = System.nanoTime() + 30_000_000_000L;
        for (int i = 0; inARow < 3 && System.nanoTime() < giveUp; i++) {
          inARow = db.insert("usertable", "back" + i, fields("c")) == Status.OK ? inARow + 1 : 0;
        }
        assertThat(inARow).as("after the restart").isEqualTo(3);
        for (int i = 0; i < 20; i++) {
          assertThat(db.insert("usertable", "more" + i, fields("d"))).isEqualTo(Status.OK);
          assertThat(db.read("usertable", "more" + i, null, new HashMap<>())).isEqualTo(Status.OK);
        }
      }
    } finally {
      db.cleanup();
    }
  }

  @Test
  void aLoadIntoAKilledServerGivesUpByItself() throws Exception {
    InProcessMongo mongo = new InProcessMongo();
    Properties p = mongo.properties("mongodb.timeout.ms", "3000", "workload", GeoWorkload.class.getName(),
        "geo.cities", TestCities.write(dir).toString(), "geo.scale", "1", "batchsize", "20", "threadcount", "2",
        "status.interval", "0", "giveup.s", "3", "results.dir", dir.resolve("load").toString());
    Runner runner = new Runner(RunSettings.fromProperties(Phase.LOAD, p, "giveup"), p,
        new Binding("mongodb-geo", MongoGeoBinding.class), dir);
    // Killed once the load is under way (a few batches written).
    Thread killer = new Thread(() -> {
      try (com.mongodb.client.MongoClient watcher = com.mongodb.client.MongoClients.create(mongo.url("ycsb"))) {
        while (watcher.getDatabase("ycsb").getCollection("restaurants").estimatedDocumentCount() < 100) {
          Thread.sleep(20);
        }
      } catch (InterruptedException e) {
        return;
      }
      mongo.close();
    });
    killer.start();
    long start = System.nanoTime();
    RunResult result;
    try {
      result = runner.execute();
    } finally {
      killer.interrupt();
      mongo.close();
    }
    // Without the rule a load of the whole dataset would fail batch after batch for a long time.
    assertThat(result.stopReason()).isEqualTo(StopReason.GIVEUP);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(60));
    assertThat(result.errors()).isPositive();
    assertThat(result.hasFailures()).as("the command exits 1").isTrue();
    assertThat(result.folder().resolve("summary.json")).exists();
  }
}
