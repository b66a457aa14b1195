package org.geoshard.mongodb;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.MongoVersion;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import java.util.List;
import java.util.Properties;

/**
 * mongo-java-server in this JVM on a loopback port: a real wire-protocol server for the driver-level
 * tests of CRUD, batched loads, write concerns and error paths. It does not run geo queries or
 * sharding commands, and the tests do not pretend it does.
 *
 * <p>mongo-java-server 1.47 reports wire version 7 (MongoDB 4.0), which driver 5.5+ refuses; its
 * backend takes any {@link MongoVersion} ({@code backend.version(...)}), so it is given one that reports
 * wire version 8 (MongoDB 4.2, the driver's minimum).
 */
public final class InProcessMongo implements AutoCloseable {
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
  private final String url;

  public InProcessMongo() {
    server = new MongoServer(new MemoryBackend().version(WireVersion8.MONGO_4_2));
    server.bind("127.0.0.1", 0);
    url = "mongodb://127.0.0.1:" + server.getLocalAddress().getPort();
  }

  public int port() {
    return server.getLocalAddress().getPort();
  }

  /** {@code mongodb://127.0.0.1:port/<database>}. */
  public String url(String database) {
    return url + "/" + database;
  }

  /** Properties for a binding against this server, with the given extra pairs. */
  public Properties properties(String... pairs) {
    Properties p = new Properties();
    p.setProperty(MongoSettings.URL, url("ycsb"));
    p.setProperty(MongoSettings.SERVER_SELECTION_TIMEOUT, "2");
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return p;
  }

  @Override
  public void close() {
    server.shutdownNow();
  }
}
