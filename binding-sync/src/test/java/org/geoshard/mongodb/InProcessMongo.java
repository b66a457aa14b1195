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
  static class RouterBackend extends MemoryBackend {
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

  /**
   * A router stand-in that also answers the balancer's three mongos commands in the shapes of
   * {@code Balancer::report} and {@code _configsvrBalancerStop/Start} ({@code balancer.cpp},
   * {@code configsvr_control_balancer_command.cpp}): {@code balancerStatus} gives {@code mode},
   * {@code inBalancerRound} and {@code numBalancerRounds}; {@code balancerStop} sets the mode off,
   * {@code balancerStart} full. It moves no chunk: that is the container tests' part.
   */
  static final class BalancerBackend extends RouterBackend {
    volatile String mode = "full";
    final java.util.List<String> commands = new java.util.concurrent.CopyOnWriteArrayList<>();

    @Override
    public de.bwaldvogel.mongo.bson.Document handleCommand(io.netty.channel.Channel channel, String database, String command,
        de.bwaldvogel.mongo.bson.Document query) {
      switch (command) {
        case "balancerStatus" -> {
          de.bwaldvogel.mongo.bson.Document answer = new de.bwaldvogel.mongo.bson.Document("mode", mode);
          answer.put("inBalancerRound", false);
          answer.put("numBalancerRounds", 7L);
          answer.put("ok", 1.0);
          return answer;
        }
        case "balancerStop", "balancerStart" -> {
          commands.add(command);
          mode = command.equals("balancerStop") ? "off" : "full";
          return new de.bwaldvogel.mongo.bson.Document("ok", 1.0);
        }
        default -> {
          return super.handleCommand(channel, database, command, query);
        }
      }
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
    this(port, asRouter ? new RouterBackend() : new MemoryBackend());
  }

  /** On a backend of the test's own (e.g. {@link BalancerBackend}). */
  InProcessMongo(int port, MemoryBackend backend) {
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
