package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.bson.Document;
import org.bson.types.MaxKey;
import org.bson.types.MinKey;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The migrations of a stage, read from {@code config.changelog} entries as a 6.0 donor writes them
 * ({@code migration_source_manager.cpp}: {@code moveChunk.commit} with min, max, from, to, counts), on the
 * in-process stand-in, which holds the entries but runs no balancer.
 */
class BalancerWatchTest {
  private static final Instant START = Instant.parse("2026-11-26T10:00:00Z");
  private static final Instant END = Instant.parse("2026-11-26T10:05:00Z");
  private InProcessMongo mongo;

  @BeforeEach
  void start() {
    mongo = new InProcessMongo();
  }

  @AfterEach
  void stop() {
    mongo.close();
  }

  private static Document entry(String what, String ns, Instant time) {
    return new Document("what", what).append("ns", ns).append("time", Date.from(time))
        .append("details", new Document("min", new Document("cell", new MinKey()))
            .append("max", new Document("cell", new MaxKey())).append("from", "rs0").append("to", "rs1")
            .append("counts", new Document("cloned", 10L)));
  }

  @Test
  void theMigrationsCommittedWithinTheStageAreCountedPerNamespaceAndAMeasuredStageIsFlagged() {
    try (MongoClient client = MongoClients.create(mongo.url("config"))) {
      client.getDatabase("config").getCollection("changelog").insertMany(List.of(
          entry("moveChunk.commit", "ycsb.restaurants", START.plusSeconds(10)),
          entry("moveChunk.commit", "ycsb.restaurants", START.plusSeconds(20)),
          entry("moveChunk.commit", "ycsb.usertable", END.minusSeconds(1)),
          entry("moveChunk.start", "ycsb.restaurants", START.plusSeconds(5)),
          entry("moveChunk.commit", "ycsb.restaurants", START.minusSeconds(1)),
          entry("moveChunk.commit", "ycsb.restaurants", END)));
    }
    BalancerWatch watch = BalancerWatch.open(mongo.url("admin"), BalancerPolicy.LEAVE, "mongodb://127.0.0.1", new SaidOnce());
    try {
      Map<String, Object> run = watch.ended("run", START, END);
      assertThat(run).containsEntry("committed", 3)
          .containsEntry("perNamespace", Map.of("ycsb.restaurants", 2, "ycsb.usertable", 1));
      assertThat((String) run.get("warning")).startsWith("3 chunk migrations were committed during the run");
      @SuppressWarnings("unchecked")
      List<Map<String, Object>> listed = (List<Map<String, Object>>) run.get("listed");
      assertThat(listed.get(0)).containsEntry("time", "2026-11-26T10:00:10Z").containsEntry("from", "rs0")
          .containsEntry("to", "rs1").containsEntry("ns", "ycsb.restaurants");
      assertThat(watch.ended("after-load", START, END)).as("not a measured stage").doesNotContainKey("warning");
      assertThat(watch.ended("load", END, END.plusSeconds(60))).containsEntry("committed", 1)
          .containsKey("warning").containsEntry("balancer", "not read (the watch started no stage)");
    } finally {
      watch.close();
      watch.close();  // idempotent
    }
  }

  @Test
  void aStageWithoutMigrationsHasNoWarningAndAServerWithoutABalancerIsSaidSo() {
    BalancerWatch watch = BalancerWatch.open(mongo.url("admin"), BalancerPolicy.PAUSE, "mongodb://127.0.0.1", new SaidOnce());
    try {
      watch.started("run");  // the stand-in has no balancerStatus: read as unreadable, nothing paused
      Map<String, Object> run = watch.ended("run", START, END);
      assertThat(run).containsEntry("committed", 0).doesNotContainKey("warning")
          .containsEntry("balancer", "left as it was (mode unreadable)");
    } finally {
      watch.close();
    }
  }

  @Test
  void theListIsCappedButEveryMigrationIsCounted() {
    List<Document> many = java.util.stream.IntStream.range(0, 30)
        .mapToObj(i -> entry("moveChunk.commit", "ycsb.restaurants", START.plusSeconds(i))).toList();
    Map<String, Object> summary = BalancerWatch.summary(many);
    assertThat(summary).containsEntry("committed", 30);
    assertThat((List<?>) summary.get("listed")).hasSize(BalancerWatch.LISTED);
  }

  @Test
  void pauseStopsARunningBalancerOnceForThePhaseAndStartsItAgainAtClose() {
    InProcessMongo.BalancerBackend backend = new InProcessMongo.BalancerBackend();
    try (InProcessMongo router = new InProcessMongo(0, backend)) {
      BalancerWatch watch = BalancerWatch.open(router.url("admin"), BalancerPolicy.PAUSE, "mongodb://router", new SaidOnce());
      watch.started("load");
      assertThat(backend.mode).isEqualTo("off");
      watch.started("after-load");  // the phase's first stage decided
      assertThat(watch.ended("load", START, END)).containsEntry("balancer", "paused (was full)");
      watch.close();
      watch.close();
      assertThat(backend.commands).containsExactly("balancerStop", "balancerStart");
      assertThat(backend.mode).isEqualTo("full");
    }
  }

  @Test
  void aBalancerOffBeforeThePhaseIsLeftOffAndLeaveNeverTouchesIt() {
    InProcessMongo.BalancerBackend backend = new InProcessMongo.BalancerBackend();
    try (InProcessMongo router = new InProcessMongo(0, backend)) {
      backend.mode = "off";
      BalancerWatch paused = BalancerWatch.open(router.url("admin"), BalancerPolicy.PAUSE, "mongodb://router", new SaidOnce());
      paused.started("run");
      assertThat(paused.ended("run", START, END)).containsEntry("balancer", "off before the phase: left off");
      paused.close();
      backend.mode = "full";
      BalancerWatch left = BalancerWatch.open(router.url("admin"), BalancerPolicy.LEAVE, "mongodb://router", new SaidOnce());
      left.started("run");
      assertThat(left.ended("run", START, END)).containsEntry("balancer", "left as it was (mode full)");
      left.close();
      assertThat(backend.commands).isEmpty();
    }
  }

  /**
   * A server without balancerStatus: its short answer is said in one line, once per process, however
   * many phases the command runs (a bench runs many), each phase's context within the command's.
   */
  @Test
  void anUnreadableBalancerIsSaidInOneLineOncePerProcess() {
    ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(BalancerWatch.class);
    ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> lines =
        new ch.qos.logback.core.read.ListAppender<>();
    lines.start();
    logger.addAppender(lines);
    org.geoshard.harness.api.SharedObjects process =
        new org.geoshard.harness.api.SharedObjects(org.geoshard.harness.api.DataDeclaration.keyValue());
    try {
      for (int phase = 0; phase < 3; phase++) {
        org.geoshard.harness.api.SharedObjects context =
            new org.geoshard.harness.api.SharedObjects(org.geoshard.harness.api.DataDeclaration.keyValue(), process);
        BalancerWatch watch = BalancerWatch.open(mongo.url("admin"), BalancerPolicy.LEAVE, "mongodb://127.0.0.1",
            SaidOnce.in(context));
        watch.started("run");
        assertThat(watch.ended("run", START, END)).containsEntry("balancer", "left as it was (mode unreadable)");
        watch.close();
        context.close();
      }
    } finally {
      logger.detachAppender(lines);
      process.close();
    }
    List<String> warnings = lines.list.stream().filter(e -> e.getLevel() == ch.qos.logback.classic.Level.WARN)
        .map(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage).toList();
    assertThat(warnings).hasSize(1);
    assertThat(warnings.get(0)).startsWith("Cannot read the balancer's state on mongodb://127.0.0.1: ")
        .contains("balancerStatus").doesNotContain("full response").doesNotContain("\n");
  }
}
