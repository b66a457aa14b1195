package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
}
