package org.geoshard.mongodb.async;

import static org.assertj.core.api.Assertions.assertThat;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import de.bwaldvogel.mongo.bson.Document;
import io.netty.channel.Channel;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.geoshard.lastlocation.contract.LocationEvent;
import org.geoshard.mongodb.InProcessMongo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import site.ycsb.Status;

/**
 * A reply the reactive driver cannot read makes it throw inside its own callback: it then neither ends
 * the request nor checks the connection back in. Here an in-process server answers every update with a
 * duplicate-key write error and no {@code n} (as FerretDB 1.24 does to an upsert that collides); with a
 * pool of two, three such requests would leave no connection for anything else without the binding
 * reclaiming them ({@link Endpoint#abandoned}).
 */
class AbandonedRequestTest {
  /** Answers {@code update} as FerretDB answers a colliding upsert: a write error, no {@code n}. */
  static final class NoCountBackend extends MemoryBackend {
    @Override
    public Document handleCommand(Channel channel, String database, String command, Document query) {
      if (command.equals("update")) {
        Document error = new Document("index", 0).append("code", 11000).append("errmsg", "E11000 duplicate key error");
        return new Document("ok", 1.0).append("writeErrors", List.of(error));
      }
      return super.handleCommand(channel, database, command, query);
    }
  }

  private MongoServer server;

  @BeforeEach
  void start() {
    server = new MongoServer(new NoCountBackend().version(InProcessMongo.wireVersion8()));
    server.bind("127.0.0.1", 0);
  }

  @AfterEach
  void stop() {
    server.shutdownNow();
    assertThat(Routers.in(org.geoshard.harness.api.StandaloneRun.context(new Properties())).openRouters()).isZero();
  }

  @Test
  void requestsTheDriverAbandonsGiveTheirConnectionsBack() throws Exception {
    Properties p = new Properties();
    p.setProperty("mongodb.url", "mongodb://127.0.0.1:" + server.getLocalAddress().getPort() + "/ycsb");
    p.setProperty("mongodb.serverSelectionTimeout", "2");
    p.setProperty("mongodb.maxconnections", "2");
    p.setProperty("mongodb.timeout.ms", "2000");
    MongoAsyncBinding db = new MongoAsyncBinding();
    db.setProperties(p);
    db.init();
    try {
      LocationEvent event = new LocationEvent("350000000000001", 3, 1_769_731_200_000L, 50, 20);
      for (int i = 0; i < 3; i++) {
        assertThat(db.upsertLastLocation(event)).as("upsert %d: the driver cannot read the reply", i).isEqualTo(Status.ERROR);
      }
      List<LocationEvent> out = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        assertThat(db.readLastLocation("350000000000001", out)).as("read %d after them", i).isEqualTo(Status.OK);
        assertThat(db.appendHistory(event)).isIn(Status.OK, Status.BATCHED_OK);
      }
    } finally {
      db.cleanup();
    }
  }
}
