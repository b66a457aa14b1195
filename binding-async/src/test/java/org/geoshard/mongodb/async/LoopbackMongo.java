package org.geoshard.mongodb.async;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.MongoVersion;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import java.util.List;

/**
 * mongo-java-server in this JVM on a loopback port, standing in for one router: it stores what it is
 * sent and answers queries on it, but does not shard or forward anything. Its backend reports wire
 * version 8 (MongoDB 4.2), since 1.47 reports 7, which driver 5.5+ refuses (as binding-sync's tests do).
 */
final class LoopbackMongo implements AutoCloseable {
  /** MongoDB 4.2's version and wire version. */
  enum WireVersion8 implements MongoVersion {
    MONGO_4_2;

    @Override
    public List<Integer> getVersionArray() {
      return List.of(4, 2, 0);
    }

    @Override
    public int getWireVersion() {
      return 8;
    }
  }

  private final MongoServer server;
  final int port;

  LoopbackMongo() {
    server = new MongoServer(new MemoryBackend().version(WireVersion8.MONGO_4_2));
    server.bind("127.0.0.1", 0);
    port = server.getLocalAddress().getPort();
  }

  String url(String database) {
    return "mongodb://127.0.0.1:" + port + "/" + database;
  }

  @Override
  public void close() {
    server.shutdownNow();
  }
}
