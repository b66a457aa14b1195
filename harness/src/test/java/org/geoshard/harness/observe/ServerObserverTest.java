package org.geoshard.harness.observe;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.geoshard.harness.api.ServerProbe;
import org.geoshard.harness.output.RunRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

class ServerObserverTest {
  @TempDir
  Path dir;
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  private final Logger logger = (Logger) LoggerFactory.getLogger(ServerObserver.class);

  private ch.qos.logback.classic.Level level;

  @BeforeEach
  void listen() {
    logged.start();
    logger.addAppender(logged);
    level = logger.getLevel();
    logger.setLevel(ch.qos.logback.classic.Level.INFO);
  }

  @AfterEach
  void stopListening() {
    logger.detachAppender(logged);
    logger.setLevel(level);
  }

  /** A node whose counter grows by 10 per reading and that is unreachable for the readings listed. */
  static class ScriptedProbe implements ServerProbe {
    final String node;
    final List<Integer> downAt;
    int readings;
    boolean closed;

    ScriptedProbe(String node, Integer... downAt) {
      this.node = node;
      this.downAt = List.of(downAt);
    }

    @Override
    public String node() {
      return node;
    }

    @Override
    public String role() {
      return "postgresql";
    }

    @Override
    public Map<String, Double> sample() throws IOException {
      int reading = ++readings;
      if (downAt.contains(reading)) {
        throw new IOException("Connection refused");
      }
      return Map.of("pg_xact_commit_total", reading * 10.0, "pg_backends_active", 3.0);
    }

    @Override
    public void close() {
      closed = true;
    }
  }

  private static RunRecord record() {
    return new RunRecord("load", "test", "x.Test", "x.Workload", "default", new Properties());
  }

  @Test
  void writesEveryReadingOnThePhasesClockAndRecordsTheSampler() throws IOException {
    AtomicLong clock = new AtomicLong(1_000_000);
    ScriptedProbe db = new ScriptedProbe("127.0.0.1:5432");
    RunRecord record = record();
    ServerObserver observer = new ServerObserver(ObserveSettings.builder().build(), dir, () -> List.of(db), record,
        clock::get);
    assertThat(observer.begin(1_000_000 - 500)).isTrue();
    for (int i = 0; i < 3; i++) {
      observer.sampleOnce();
      clock.addAndGet(1000);
    }
    observer.close();

    List<String> lines = Files.readAllLines(dir.resolve("servers.csv"));
    assertThat(lines.get(0)).isEqualTo("time_s,node,role,metric,value");
    assertThat(lines.subList(1, lines.size())).containsExactlyInAnyOrder(
        "0.500,127.0.0.1:5432,postgresql,pg_xact_commit_total,10", "0.500,127.0.0.1:5432,postgresql,pg_backends_active,3",
        "1.500,127.0.0.1:5432,postgresql,pg_xact_commit_total,20", "1.500,127.0.0.1:5432,postgresql,pg_backends_active,3",
        "2.500,127.0.0.1:5432,postgresql,pg_xact_commit_total,30", "2.500,127.0.0.1:5432,postgresql,pg_backends_active,3");
    assertThat(db.closed).as("probes are closed with the observer").isTrue();
    @SuppressWarnings("unchecked")
    Map<String, Object> observe = (Map<String, Object>) record.asMap().get("observe");
    assertThat(observe).containsEntry("intervalSeconds", 1.0).containsEntry("rounds", 3L)
        .containsEntry("file", "servers.csv");
    assertThat(observe.get("nodes").toString()).contains("node=127.0.0.1:5432", "role=postgresql", "requests=3",
        "failures=0");
  }

  @Test
  void aFailingNodeIsLoggedOnceSampledAgainAndNeverStopsTheOthers() throws IOException {
    AtomicLong clock = new AtomicLong(0);
    ScriptedProbe flaky = new ScriptedProbe("shard01", 2, 3, 4);
    ScriptedProbe steady = new ScriptedProbe("shard02");
    RunRecord record = record();
    ServerObserver observer = new ServerObserver(ObserveSettings.builder().build(), dir, () -> List.of(flaky, steady),
        record, clock::get);
    observer.begin(0);
    for (int i = 0; i < 6; i++) {
      observer.sampleOnce();
      clock.addAndGet(1000);
    }
    observer.close();

    List<String> lines = Files.readAllLines(dir.resolve("servers.csv"));
    assertThat(lines.stream().filter(l -> l.contains("shard02,") && l.contains("commit"))).hasSize(6);
    assertThat(lines.stream().filter(l -> l.contains("shard01,") && l.contains("commit")).map(l -> l.split(",")[0]))
        .containsExactly("0.000", "4.000", "5.000");
    List<String> messages = logged.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    assertThat(messages.stream().filter(m -> m.startsWith("Cannot sample shard01"))).hasSize(1);
    assertThat(messages).anyMatch(m -> m.startsWith("Sampling shard01 (postgresql) again"));
    assertThat(record.asMap().get("observe").toString()).contains("node=shard01", "requests=6", "failures=3");
  }

  @Test
  void aBindingWhoseNodesCannotBeFoundYetIsAskedAgainLater() throws IOException {
    AtomicLong clock = new AtomicLong(0);
    List<Integer> calls = new ArrayList<>();
    ScriptedProbe db = new ScriptedProbe("db");
    ServerObserver observer = new ServerObserver(ObserveSettings.builder().build(), dir, () -> {
      calls.add(calls.size());
      if (calls.size() < 3) {
        throw new IOException("server starting up");
      }
      return List.of(db);
    }, record(), clock::get);
    observer.begin(0);
    for (int i = 0; i < 4; i++) {
      observer.sampleOnce();
      clock.addAndGet(1000);
    }
    observer.close();
    assertThat(calls).hasSize(3);
    assertThat(db.readings).isEqualTo(2);
    assertThat(logged.list.stream().filter(e -> e.getFormattedMessage().startsWith("Cannot find the database's nodes")))
        .hasSize(1);
  }

  /** The thread: readings at the start and the end at least, and the parts' times (wide margins only). */
  @Test
  void theSamplerThreadReadsFromThePartsStartToTheClose() throws Exception {
    ScriptedProbe db = new ScriptedProbe("db");
    RunRecord record = record();
    ServerObserver observer = new ServerObserver(ObserveSettings.builder().interval(Duration.ofMillis(100)).build(), dir,
        () -> List.of(db), record);
    long origin = System.currentTimeMillis();
    observer.started(Stage.LOAD);
    observer.clockStarted(origin);
    observer.ended(Stage.LOAD);
    observer.started(Stage.AFTER_LOAD);
    observer.ended(Stage.AFTER_LOAD);
    observer.close();
    observer.close();  // idempotent
    assertThat(db.readings).isGreaterThanOrEqualTo(2);
    assertThat(db.closed).isTrue();
    List<Double> times = Files.readAllLines(dir.resolve("servers.csv")).stream().skip(1)
        .filter(l -> l.contains("commit")).map(l -> Double.parseDouble(l.split(",")[0])).toList();
    assertThat(times).isSorted().allMatch(t -> t >= 0 && t < 60);
    assertThat(record.asMap().get("observe").toString()).contains("part=load", "part=after-load", "endS=");
  }

  /** A reading that waits on a stalled server is abandoned when the phase is cut off; its late answer writes nothing. */
  @Test
  void aPhaseCutOffDoesNotWaitForAReadingInProgress() throws Exception {
    java.util.concurrent.CountDownLatch asked = new java.util.concurrent.CountDownLatch(2);
    java.util.concurrent.CountDownLatch answer = new java.util.concurrent.CountDownLatch(1);
    ScriptedProbe stalled = new ScriptedProbe("stalled") {
      @Override
      public Map<String, Double> sample() throws IOException {
        asked.countDown();
        if (asked.getCount() == 0) {  // the second reading: the server has stopped answering
          try {
            answer.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
        return super.sample();
      }
    };
    ServerObserver observer = new ServerObserver(ObserveSettings.builder().interval(Duration.ofMillis(100)).build(), dir,
        () -> List.of(stalled), record());
    observer.started(Stage.RUN);
    observer.clockStarted(System.currentTimeMillis());
    assertThat(asked.await(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    long start = System.nanoTime();
    observer.cutOff();
    observer.ended(Stage.RUN);
    observer.close();
    long ms = (System.nanoTime() - start) / 1_000_000;
    answer.countDown();  // the server answers at last, after the file was closed
    Thread.sleep(200);

    // Without the cut-off the close waits for the reading up to twice the probe's timeout (10 s and more).
    assertThat(ms).as("ms the close waited").isLessThan(5_000L);
    assertThat(Files.readAllLines(dir.resolve("servers.csv")).stream().filter(l -> l.contains("commit")))
        .as("the first reading only").hasSize(1);
    assertThat(logged.list.stream().map(ILoggingEvent::getFormattedMessage))
        .anyMatch(m -> m.startsWith("The server sampler is still waiting for an answer"))
        .noneMatch(m -> m.startsWith("Cannot sample"));
  }
}
