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

  /**
   * A backend that answers {@code hello}/{@code isMaster} as a mongos does ({@code msg: "isdbgrid"}):
   * the stand-in for a shard's router in the routing tests, which never run sharding commands on it.
   */
  static final class RouterBackend extends MemoryBackend {
    @Override
    public de.bwaldvogel.mongo.bson.Document handleCommand(io.netty.channel.Channel channel, String database, String command,
        de.bwaldvogel.mongo.bson.Document query) {
      de.bwaldvogel.mongo.bson.Document answer = super.handleCommand(channel, database, command, query);
      if (command.equalsIgnoreCase("ismaster") || command.equals("hello")) {
        answer.put("msg", "isdbgrid");
      }
      return answer;
    }
  }

  private final MongoServer server;
  private final String url;

  /** MongoDB 4.2's version, for a backend of a test's own. */
  public static MongoVersion wireVersion8() {
    return WireVersion8.MONGO_4_2;
  }

  public InProcessMongo() {
    this(0, false);
  }

  /**
   * @param port 0 for any free port; a given one to start a server again where a stopped one listened
   * @param asRouter answer {@code hello} as a mongos (see {@link RouterBackend})
   */
  public InProcessMongo(int port, boolean asRouter) {
    MemoryBackend backend = asRouter ? new RouterBackend() : new MemoryBackend();
    server = new MongoServer(backend.version(WireVersion8.MONGO_4_2));
    server.bind("127.0.0.1", port);
    url = "mongodb://127.0.0.1:" + server.getLocalAddress().getPort();
  }

  /** A shard's router stand-in on any free port (see {@link RouterBackend}). */
  public static InProcessMongo router() {
    return new InProcessMongo(0, true);
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
