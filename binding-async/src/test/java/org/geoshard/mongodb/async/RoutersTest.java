package org.geoshard.mongodb.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Properties;
import org.bson.Document;
import org.geoshard.harness.api.DataDeclaration;
import org.geoshard.harness.api.SharedObjects;
import org.geoshard.harness.api.StandaloneRun;
import org.geoshard.mongodb.InProcessMongo;
import org.geoshard.mongodb.MongoStartException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The routers and their counters live in the phase's context: each phase has its own, the phase's end
 * closes what its instances left open, and instances that joined no phase (plain YCSB) share the JVM's.
 */
class RoutersTest {
  private InProcessMongo mongo;

  @BeforeEach
  void start() {
    mongo = new InProcessMongo();
  }

  @AfterEach
  void stop() {
    mongo.close();
    StandaloneRun.forget();
  }

  private MongoAsyncBinding binding(SharedObjects phase) throws Exception {
    MongoAsyncBinding db = new MongoAsyncBinding();
    db.setProperties(mongo.properties());
    if (phase != null) {
      db.joinRun(phase);
    }
    db.init();
    return db;
  }

  private static boolean answers(Router router) {
    try {
      return router.control.client().getDatabase("admin").runCommand(new Document("ping", 1)).get("ok").equals(1.0);
    } catch (IllegalStateException closed) {
      return false;
    }
  }

  private static Routers standalone() {
    return Routers.in(StandaloneRun.context(new Properties()));
  }

  @Test
  void twoPhasesGetRoutersAndCountersOfTheirOwn() throws Exception {
    try (SharedObjects load = new SharedObjects(DataDeclaration.keyValue());
         SharedObjects run = new SharedObjects(DataDeclaration.keyValue())) {
      MongoAsyncBinding a1 = binding(load);
      MongoAsyncBinding a2 = binding(load);
      MongoAsyncBinding b1 = binding(run);
      assertThat(a2.router()).as("one phase, one router").isSameAs(a1.router());
      assertThat(b1.router()).as("another phase, another router").isNotSameAs(a1.router());
      assertThat(b1.router().control.client()).isNotSameAs(a1.router().control.client());
      assertThat(Routers.in(load).statsOf(a1.settings())).isNotSameAs(Routers.in(run).statsOf(b1.settings()));
      assertThat(standalone().openRouters()).as("nothing in the JVM's").isZero();

      Router loadRouter = a1.router();
      a1.cleanup();
      a2.cleanup();
      assertThat(Routers.in(load).openRouters()).as("the last instance of the phase closed it").isZero();
      assertThat(answers(loadRouter)).as("with its hold on the sync client").isFalse();
      assertThat(answers(b1.router())).as("the other phase's router goes on").isTrue();
      b1.cleanup();
      assertThat(Routers.in(run).openRouters()).isZero();
    }
  }

  @Test
  void thePhasesEndClosesTheRoutersItsInstancesLeftOpen() throws Exception {
    SharedObjects phase = new SharedObjects(DataDeclaration.keyValue());
    MongoAsyncBinding abandoned = binding(phase);
    Router router = abandoned.router();
    Routers routers = Routers.in(phase);
    assertThat(routers.openRouters()).isEqualTo(1);
    phase.close();
    assertThat(routers.openRouters()).isZero();
    assertThat(answers(router)).as("closed with the phase").isFalse();
    assertThatThrownBy(() -> routers.acquire(abandoned.settings()))
        .isInstanceOf(MongoStartException.class).hasMessageContaining("after the end of its phase");
    abandoned.cleanup();  // a late cleanup closes nothing twice and does not fail
    assertThat(routers.openRouters()).isZero();
  }

  @Test
  void instancesThatJoinedNoPhaseShareTheJvmsRouterAndCounters() throws Exception {
    MongoAsyncBinding one = binding(null);
    MongoAsyncBinding other = binding(null);
    try {
      assertThat(other.router()).isSameAs(one.router());
      assertThat(standalone().openRouters()).isEqualTo(1);
    } finally {
      one.cleanup();
      other.cleanup();
    }
    assertThat(standalone().openRouters()).isZero();
    MongoAsyncBinding later = binding(null);
    try {
      assertThat(later.router().stats).as("the counters outlive the router").isSameAs(standalone().statsOf(later.settings()));
      assertThat(standalone().statsOf(later.settings())).isSameAs(standalone().statsOf(one.settings()));
    } finally {
      later.cleanup();
    }
    assertThat(List.of(standalone().openRouters())).containsExactly(0);
  }

  /** Instances that let go and open again within a phase (checks, threads, topology) say the routing once. */
  @Test
  void theRoutingAndTheServerAreSaidOncePerPhase() throws Exception {
    java.util.List<String> infos = new java.util.ArrayList<>();
    ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> lines =
        new ch.qos.logback.core.read.ListAppender<>();
    lines.start();
    java.util.List<ch.qos.logback.classic.Logger> loggers = java.util.List.of(
        (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(Router.class),
        (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(org.geoshard.mongodb.SharedClients.class));
    for (ch.qos.logback.classic.Logger logger : loggers) {
      logger.addAppender(lines);
      logger.setLevel(ch.qos.logback.classic.Level.INFO);
    }
    SharedObjects phase = new SharedObjects(org.geoshard.harness.api.DataDeclaration.keyValue());
    try {
      for (int i = 0; i < 3; i++) {
        binding(phase).cleanup();
      }
    } finally {
      phase.close();
      for (ch.qos.logback.classic.Logger logger : loggers) {
        logger.detachAppender(lines);
        logger.setLevel(null);
      }
    }
    lines.list.stream().filter(e -> e.getLevel() == ch.qos.logback.classic.Level.INFO)
        .map(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage).forEach(infos::add);
    assertThat(infos.stream().filter(m -> m.startsWith("MongoDB routing "))).hasSize(1);
    assertThat(infos.stream().filter(m -> m.matches(".* at mongodb://.*") && !m.startsWith("MongoDB routing "))).hasSize(1);
  }
}
