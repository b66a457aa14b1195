package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.event.CommandListener;
import java.util.List;
import java.util.Properties;
import org.bson.Document;
import org.geoshard.harness.api.DataDeclaration;
import org.geoshard.harness.api.SharedObjects;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** One client per phase and URL, shared by the threads, closed by the last. */
class SharedClientsTest {
  private final SharedObjects phase = new SharedObjects(DataDeclaration.keyValue());
  private final SharedClients clients = SharedClients.in(phase);

  @AfterEach
  void end() {
    phase.close();
  }

  private static MongoSettings settings(InProcessMongo mongo, String... pairs) throws Exception {
    Properties p = mongo.properties(pairs);
    return MongoSettings.fromProperties(p);
  }

  @Test
  void threadsShareOneClientThatTheLastCloses() throws Exception {
    try (InProcessMongo mongo = new InProcessMongo()) {
      SharedClients.Lease first = clients.acquire(settings(mongo));
      SharedClients.Lease second = clients.acquire(settings(mongo, "batchsize", "7", "mongodb.writeConcern", "majority"));
      assertThat(second.client()).as("collection-level options share the client").isSameAs(first.client());
      assertThat(clients.openClients()).isEqualTo(1);
      assertThat(first.facts().kind()).isEqualTo(ServerFacts.Kind.STANDALONE);
      assertThat(first.facts().version()).isEqualTo(new ServerVersion(4, 2, 0));

      first.close();
      first.close();  // a second close does not count twice
      assertThat(clients.openClients()).isEqualTo(1);
      assertThat(second.client().getDatabase("admin").runCommand(new Document("ping", 1)).get("ok")).isEqualTo(1.0);

      second.close();
      assertThat(clients.openClients()).isZero();
      assertThatThrownBy(() -> second.client().getDatabase("admin").runCommand(new Document("ping", 1)))
          .isInstanceOf(IllegalStateException.class);
    }
  }

  @Test
  void clientOptionsOrAnotherUrlMakeAnotherClient() throws Exception {
    try (InProcessMongo a = new InProcessMongo(); InProcessMongo b = new InProcessMongo()) {
      try (SharedClients.Lease one = clients.acquire(settings(a));
           SharedClients.Lease other = clients.acquire(settings(b));
           SharedClients.Lease pool = clients.acquire(settings(a, "mongodb.maxconnections", "5"))) {
        assertThat(other.client()).isNotSameAs(one.client());
        assertThat(pool.client()).isNotSameAs(one.client());
        assertThat(clients.openClients()).isEqualTo(3);
      }
      assertThat(clients.openClients()).isZero();
    }
  }

  /** The key is the connection settings: equal ones share a client, listeners by their own equality. */
  @Test
  void equalConnectionSettingsShareAClientListenersByTheirEquality() throws Exception {
    record Tally(String name) implements CommandListener {
    }
    CommandListener anonymous = new CommandListener() {
    };
    try (InProcessMongo mongo = new InProcessMongo()) {
      Properties p = mongo.properties("clientthreads", "7");
      try (SharedClients.Lease one = clients.acquire(MongoSettings.fromProperties(p, List.of(anonymous)));
           SharedClients.Lease same = clients.acquire(MongoSettings.fromProperties(
               mongo.properties("mongodb.maxconnections", "7", "mongodb.connect.wait.s", "60"), List.of(anonymous)));
           SharedClients.Lease another = clients.acquire(MongoSettings.fromProperties(p, List.of(new CommandListener() {
           })));
           SharedClients.Lease tally = clients.acquire(MongoSettings.fromProperties(p, List.of(new Tally("t"))));
           SharedClients.Lease equalTally = clients.acquire(MongoSettings.fromProperties(p, List.of(new Tally("t"))))) {
        assertThat(same.client()).as("the same pool size and listener").isSameAs(one.client());
        assertThat(another.client()).as("another listener object").isNotSameAs(one.client());
        assertThat(equalTally.client()).as("equal listener values").isSameAs(tally.client());
        assertThat(clients.openClients()).isEqualTo(3);
      }
      assertThat(clients.openClients()).isZero();
    }
  }

  @Test
  void aReleasedUrlOpensAFreshClient() throws Exception {
    try (InProcessMongo mongo = new InProcessMongo()) {
      SharedClients.Lease first = clients.acquire(settings(mongo));
      var client = first.client();
      first.close();
      try (SharedClients.Lease again = clients.acquire(settings(mongo))) {
        assertThat(again.client()).isNotSameAs(client);
        assertThat(again.client().getDatabase("admin").runCommand(new Document("ping", 1)).get("ok")).isEqualTo(1.0);
      }
    }
  }

  /** A client the last instance closed and the next opens again is the same server: one line per phase. */
  @Test
  void theServerIsSaidOncePerPhaseHoweverOftenItsClientIsOpenedAgain() throws Exception {
    ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(SharedClients.class);
    ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> lines =
        new ch.qos.logback.core.read.ListAppender<>();
    lines.start();
    logger.addAppender(lines);
    logger.setLevel(ch.qos.logback.classic.Level.INFO);  // the tests' root is WARN
    try (InProcessMongo mongo = new InProcessMongo()) {
      for (int i = 0; i < 4; i++) {  // the start checks, the threads, the topology after the run, preflight
        clients.acquire(settings(mongo, "clientthreads", "9", "mongodb.maxconnections", "3")).close();
      }
      clients.acquire(settings(mongo)).close();  // another pool (the checks before the threads' count is known)
      SharedObjects next = new SharedObjects(DataDeclaration.keyValue());
      SharedClients.in(next).acquire(settings(mongo)).close();
      next.close();
    } finally {
      logger.detachAppender(lines);
      logger.setLevel(null);
    }
    List<String> infos = lines.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(ch.qos.logback.classic.Level.INFO))
        .map(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage).toList();
    assertThat(infos.stream().filter(m -> m.matches(".* standalone at .*"))).as("one per phase, two phases")
        .hasSize(2);
    assertThat(infos.stream().filter(m -> m.contains("client threads share a pool"))).as("the pool warning once").hasSize(1);
  }
}
