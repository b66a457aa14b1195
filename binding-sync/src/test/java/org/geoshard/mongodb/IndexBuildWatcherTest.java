package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.bson.Document;
import org.junit.jupiter.api.Test;

/**
 * The bounds the watcher derives from {@code $currentOp} samples. The samples are scripted documents
 * shaped as the server's (no server involved); the clock is the test's.
 */
class IndexBuildWatcherTest {
  private final AtomicLong now = new AtomicLong();

  private static Document op(String shard, long microsRunning) {
    return new Document("shard", shard).append("ns", "ycsb.restaurants")
        .append("command", new Document("createIndexes", "restaurants"))
        .append("microsecs_running", microsRunning).append("msg", "Index Build: scanning collection");
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
    List<String> lines = new java.util.ArrayList<>();
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
