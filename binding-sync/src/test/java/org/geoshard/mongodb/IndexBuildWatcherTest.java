package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.bson.Document;
import org.junit.jupiter.api.Test;

/**
 * The bounds and progress the watcher derives from {@code $currentOp} samples. The samples are scripted
 * documents shaped as the server's (no server involved): one operation per build up to 4.2, two from 4.4
 * (the client's command and the builder thread); the clock is the test's.
 */
class IndexBuildWatcherTest {
  private final AtomicLong now = new AtomicLong();

  private static Document op(String shard, long microsRunning) {
    return new Document("shard", shard).append("ns", "ycsb.restaurants")
        .append("command", new Document("createIndexes", "restaurants"))
        .append("microsecs_running", microsRunning).append("msg", "Index Build: scanning collection");
  }

  /** The client's {@code createIndexes} from 4.4: its connection's operation, no message, no progress; it waits. */
  private static Document clientCommand(String shard, long microsRunning) {
    return new Document("shard", shard).append("desc", "conn42").append("op", "command").append("ns", "ycsb.restaurants")
        .append("command", new Document("createIndexes", "restaurants")
            .append("indexes", List.of(new Document("key", new Document("location", "2dsphere")))))
        .append("microsecs_running", microsRunning);
  }

  /** The thread building the index from 4.4: the caller's command merged in, the message and the progress. */
  private static Document builder(String shard, long microsRunning, String msg, long done, long total) {
    return new Document("shard", shard).append("desc", "IndexBuildsCoordinatorMongod-0").append("op", "command")
        .append("ns", "ycsb.restaurants")
        .append("command", new Document("createIndexes", "restaurants")
            .append("indexes", List.of(new Document("key", new Document("location", "2dsphere")))))
        .append("microsecs_running", microsRunning).append("msg", msg)
        .append("progress", new Document("done", done).append("total", total));
  }

  /** Up to 4.2: the client's command is the build and carries its message and progress. */
  private static Document command42(String shard, long microsRunning, long done, long total) {
    return clientCommand(shard, microsRunning).append("msg", "Index Build: scanning collection")
        .append("progress", new Document("done", done).append("total", total));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Map<String, Object>> shards(IndexBuildWatcher watcher) {
    return (Map<String, Map<String, Object>>) watcher.findings().get("shards");
  }

  /** A watcher of scripted samples, one every 4 s of the test's clock, logging progress at every sample. */
  private IndexBuildWatcher scripted(Deque<List<Document>> samples, List<String> lines) {
    return new IndexBuildWatcher(() -> {
      now.addAndGet(4_000_000_000L);
      return samples.isEmpty() ? List.of() : samples.poll();
    }, "ycsb", "restaurants", 4_000_000_000L, now::get, lines::add, 1);
  }

  @Test
  void aServerUpTo42ReportsItsProgressOnTheCommandItself() {
    List<String> lines = new ArrayList<>();
    IndexBuildWatcher watcher = scripted(new ArrayDeque<>(List.of(
        List.of(command42("rs0", 4_000_000, 20_000, 70_000), command42("rs1", 4_000_000, 10_000, 30_000)),
        List.of(command42("rs0", 8_000_000, 50_000, 70_000)))), lines);
    watcher.sampleOnce();
    watcher.sampleOnce();
    assertThat(lines).containsExactly(
        "Index build on rs0 (ycsb.restaurants): Index Build: scanning collection, 28.6% (20,000 of 70,000), running 4 s",
        "Index build on rs1 (ycsb.restaurants): Index Build: scanning collection, 33.3% (10,000 of 30,000), running 4 s",
        "Index build on rs0 (ycsb.restaurants): Index Build: scanning collection, 71.4% (50,000 of 70,000), running 8 s");
    assertThat(shards(watcher).get("rs0")).containsEntry("samples", 2L).containsEntry("atLeastMs", 8_000L);
    assertThat(shards(watcher).get("rs1")).containsEntry("samples", 1L).containsEntry("atLeastMs", 4_000L);
  }

  @Test
  void fromMongo44TheClientsCommandAndTheBuilderThreadAreOneBuildWithTheBuildersProgress() {
    List<String> lines = new ArrayList<>();
    IndexBuildWatcher watcher = scripted(new ArrayDeque<>(List.of(
        List.of(clientCommand("rs0", 4_100_000), builder("rs0", 4_000_000, "Index Build: scanning collection", 30_000,
            70_000), builder("rs1", 3_900_000, "Index Build: scanning collection", 5_000, 30_000),
            clientCommand("rs1", 4_050_000)),
        List.of(builder("rs0", 8_000_000, "Index Build: inserting keys from external sorter into index", 60_000, 70_000),
            clientCommand("rs0", 8_100_000)))), lines);
    watcher.sampleOnce();
    watcher.sampleOnce();
    assertThat(lines).as("one line per shard and sample, the builder's progress, the longer running time").containsExactly(
        "Index build on rs0 (ycsb.restaurants): Index Build: scanning collection, 42.9% (30,000 of 70,000), running 4 s",
        "Index build on rs1 (ycsb.restaurants): Index Build: scanning collection, 16.7% (5,000 of 30,000), running 4 s",
        "Index build on rs0 (ycsb.restaurants): Index Build: inserting keys from external sorter into index, 85.7% "
            + "(60,000 of 70,000), running 8 s");
    assertThat(shards(watcher).get("rs0")).as("two operations per sample, one build").containsEntry("samples", 2L)
        .containsEntry("atLeastMs", 8_100L)
        .containsEntry("lastMessage", "Index Build: inserting keys from external sorter into index");
    assertThat(shards(watcher).get("rs1")).containsEntry("samples", 1L).containsEntry("atLeastMs", 4_050L);
    assertThat(watcher.seenShards()).containsExactly("rs0", "rs1");
  }

  @Test
  void aBuilderThreadIsMatchedByItsNamespaceAndMessageAlone() {
    Document ours = new Document("desc", "IndexBuildsCoordinatorMongod-3").append("op", "command")
        .append("ns", "ycsb.restaurants").append("microsecs_running", 5_000_000L)
        .append("msg", "Index Build: scanning collection").append("progress", new Document("done", 1).append("total", 4));
    List<String> lines = new ArrayList<>();
    IndexBuildWatcher watcher = scripted(new ArrayDeque<>(List.of(List.of(
        ours,
        new Document(ours).append("ns", "ycsb.usertable"),
        new Document(ours).append("ns", "other.restaurants"),
        new Document(ours).append("msg", "Waiting for something else"),
        new Document(ours).append("op", "query")))), lines);
    watcher.sampleOnce();
    assertThat(lines).containsExactly(
        "Index build on server (ycsb.restaurants): Index Build: scanning collection, 25.0% (1 of 4), running 5 s");
    assertThat(shards(watcher).get("server")).containsEntry("samples", 1L);
  }

  /**
   * The {@code $match} the server gets, run by mongo-java-server's matcher on the same documents: it lets
   * through both operations of a 4.4+ build and the 4.2 command, and nothing of another namespace.
   */
  @Test
  void theServersFilterLetsThroughBothOperationsOfTheBuildAndNoOther() {
    try (InProcessMongo mongo = new InProcessMongo(); MongoClient client = MongoClients.create(mongo.url("ycsb"))) {
      MongoCollection<Document> ops = client.getDatabase("ops").getCollection("inprog");
      Document builderOnly = new Document("desc", "IndexBuildsCoordinatorMongod-1").append("op", "command")
          .append("ns", "ycsb.restaurants").append("msg", "Index Build: scanning collection");
      ops.insertMany(List.of(
          clientCommand("rs0", 1).append("_id", "client 4.4"),
          builder("rs0", 1, "Index Build: scanning collection", 1, 2).append("_id", "builder 4.4"),
          command42("rs1", 1, 1, 2).append("_id", "command 4.2"),
          new Document(builderOnly).append("_id", "builder without the command"),
          new Document(builderOnly).append("ns", "ycsb.usertable").append("_id", "builder of another collection"),
          new Document(builderOnly).append("ns", "other.restaurants").append("_id", "builder of another database"),
          new Document(builderOnly).append("msg", "Waiting for a lock").append("_id", "another message"),
          clientCommand("rs0", 1).append("command", new Document("createIndexes", "usertable"))
              .append("_id", "createIndexes of another collection"),
          new Document("op", "query").append("ns", "ycsb.restaurants").append("command", new Document("find", "restaurants"))
              .append("_id", "a query")));
      List<Object> matched = ops.find(IndexBuildWatcher.currentOpFilter("ycsb", "restaurants"))
          .map(d -> d.get("_id")).into(new ArrayList<>());
      assertThat(matched).containsExactlyInAnyOrder("client 4.4", "builder 4.4", "command 4.2", "builder without the command");
    }
  }

  @Test
  void boundsPerShardFromTheLastSightingToTheFirstAbsence() {
    Deque<List<Document>> samples = new ArrayDeque<>(List.of(
        List.of(op("rs0", 100_000), op("rs1", 100_000)),
        List.of(op("rs0", 350_000), op("rs1", 350_000)),
        List.of(op("rs1", 600_000)),
        List.of()));
    IndexBuildWatcher watcher = new IndexBuildWatcher(() -> {
      now.addAndGet(5_000_000);  // each sample takes 5 ms
      return samples.isEmpty() ? List.of() : samples.poll();
    }, "ycsb", "restaurants", 250_000_000L, now::get);
    for (int i = 0; i < 4; i++) {
      assertThat(watcher.sampleOnce()).isTrue();
      now.addAndGet(245_000_000);  // the sampling interval
    }
    Map<String, Object> findings = watcher.findings();
    @SuppressWarnings("unchecked")
    Map<String, Map<String, Object>> shards = (Map<String, Map<String, Object>>) findings.get("shards");
    // rs0 last seen in the request sent at 250 ms (running 350 ms), absent in the answer at 505 ms.
    assertThat(shards.get("rs0")).containsEntry("atLeastMs", 350L).containsEntry("atMostMs", 350L + 255L)
        .containsEntry("samples", 2L);
    // rs1 last seen in the request sent at 500 ms (running 600 ms), absent in the answer at 755 ms.
    assertThat(shards.get("rs1")).containsEntry("atLeastMs", 600L).containsEntry("atMostMs", 600L + 255L)
        .containsEntry("samples", 3L).containsEntry("lastMessage", "Index Build: scanning collection");
    assertThat(findings).doesNotContainKey("unavailable");
    assertThat(watcher.seenShards()).containsExactly("rs0", "rs1");
  }

  @Test
  void otherOperationsAreIgnoredAndAStandaloneIsOneServer() {
    IndexBuildWatcher watcher = new IndexBuildWatcher(() -> List.of(
        new Document("ns", "ycsb.restaurants").append("command", new Document("createIndexes", "restaurants"))
            .append("microsecs_running", 2_000),
        new Document("ns", "other.restaurants").append("command", new Document("createIndexes", "restaurants")),
        new Document("ns", "ycsb.usertable").append("command", new Document("createIndexes", "usertable")),
        new Document("ns", "ycsb.restaurants").append("command", new Document("find", "restaurants"))),
        "ycsb", "restaurants", 1, now::get);
    watcher.sampleOnce();
    assertThat(watcher.seenShards()).containsExactly("server");
  }

  @Test
  void withoutThePrivilegeThePerShardTimesAreUnavailable() {
    IndexBuildWatcher watcher = new IndexBuildWatcher(() -> {
      throw new IllegalStateException("not authorized on admin to execute command { aggregate: 1 }");
    }, "ycsb", "restaurants", 1, now::get);
    assertThat(watcher.sampleOnce()).isFalse();
    assertThat(watcher.findings()).containsEntry("unavailable", "not authorized on admin to execute command { aggregate: 1 }");
  }

  @Test
  void startAndStopInAThread() {
    IndexBuildWatcher watcher = new IndexBuildWatcher(() -> List.of(op("rs0", 1000)), "ycsb", "restaurants",
        1_000_000L, System::nanoTime);
    watcher.start();
    Map<String, Object> findings = watcher.stop();
    assertThat(findings.get("method").toString()).startsWith("$currentOp sampled every 1 ms");
  }

  @Test
  void aLongBuildReportsItsProgressAtMostEveryInterval() {
    List<String> lines = new ArrayList<>();
    Deque<List<Document>> samples = new ArrayDeque<>();
    for (long done = 1; done <= 7; done++) {
      samples.add(List.of(op("rs0", done * 4_000_000).append("msg", "Index Build: scanning collection")
          .append("progress", new Document("done", done * 10_000L).append("total", 70_000L))));
    }
    // A sample every 4 s (scripted clock), progress at most every 10 s: lines at 12 s and 24 s.
    IndexBuildWatcher watcher = new IndexBuildWatcher(() -> {
      now.addAndGet(4_000_000_000L);
      return samples.isEmpty() ? List.of() : samples.poll();
    }, "ycsb", "restaurants", 4_000_000_000L, now::get, lines::add, 10_000_000_000L);
    for (int i = 0; i < 7; i++) {
      watcher.sampleOnce();
    }
    assertThat(lines).containsExactly(
        "Index build on rs0 (ycsb.restaurants): Index Build: scanning collection, 42.9% (30,000 of 70,000), running 12 s",
        "Index build on rs0 (ycsb.restaurants): Index Build: scanning collection, 85.7% (60,000 of 70,000), running 24 s");
  }
}
