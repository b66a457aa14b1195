package org.geoshard.mongodb;

import com.github.dockerjava.api.DockerClient;
import com.mongodb.MongoCommandException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.bson.Document;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.lifecycle.Startables;
import org.testcontainers.utility.DockerImageName;

/**
 * A MongoDB deployment built from containers with Testcontainers: with 0 shards one standalone mongod;
 * with N shards a sharded cluster on one Docker network: a config server replica set ({@code cfg}),
 * N shard replica sets of one member each ({@code rs0} on host {@code shard0}, ...) and one mongos,
 * the only container the client talks to (through its mapped port). Used by the container tests and
 * by {@code mongodb.url=testcontainers:3s}. Needs a Docker engine.
 *
 * <p>Every step is idempotent (replica sets initiated and shards added only when missing), so that a
 * reused cluster ({@code reusable}: Testcontainers' reuse, enabled by the user) is picked up as it is.
 * A reusable cluster sits on a named network ({@code geoshard-3s}) so that its containers hash the same
 * from one command to the next; it is left running on {@link #close()}.
 */
public final class ThrowawayCluster implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ThrowawayCluster.class);
  static final int PORT = 27017;
  static final String LABEL = "geoshard.cluster";
  private static final Duration STARTUP = Duration.ofMinutes(3);
  private static final int ALREADY_INITIALIZED = 23;

  private final int shards;
  private final boolean reusable;
  private final Network network;
  private final List<GenericContainer<?>> containers;
  private final GenericContainer<?> router;

  private ThrowawayCluster(int shards, boolean reusable, Network network, List<GenericContainer<?>> containers,
      GenericContainer<?> router) {
    this.shards = shards;
    this.reusable = reusable;
    this.network = network;
    this.containers = containers;
    this.router = router;
  }

  /** True when Testcontainers finds a Docker engine. */
  public static boolean dockerAvailable() {
    try {
      return DockerClientFactory.instance().isDockerAvailable();
    } catch (RuntimeException e) {
      return false;
    }
  }

  /**
   * Starts the deployment and waits until it accepts writes.
   *
   * @param shards 0 for a standalone mongod, else the number of shards
   * @param image e.g. {@code mongo:8.0}
   * @param reusable keep the containers for the next command (Testcontainers' reuse must be enabled)
   */
  public static ThrowawayCluster start(int shards, String image, boolean reusable) {
    String tag = shards + "s";
    Network network = reusable ? namedNetwork("geoshard-" + tag) : Network.newNetwork();
    List<GenericContainer<?>> all = new ArrayList<>();
    try {
      if (shards == 0) {
        GenericContainer<?> mongod = node(image, network, "mongod", reusable, tag, "mongod");
        all.add(mongod);
        mongod.start();
        return new ThrowawayCluster(0, reusable, network, all, mongod);
      }
      GenericContainer<?> config = node(image, network, "cfg", reusable, tag, "mongod", "--configsvr", "--replSet", "cfg");
      all.add(config);
      List<GenericContainer<?>> shardNodes = new ArrayList<>();
      for (int i = 0; i < shards; i++) {
        GenericContainer<?> shard = node(image, network, "shard" + i, reusable, tag, "mongod", "--shardsvr", "--replSet", "rs" + i);
        shardNodes.add(shard);
        all.add(shard);
      }
      Startables.deepStart(all).join();
      initiate(config, "cfg", "cfg", true);
      for (int i = 0; i < shards; i++) {
        initiate(shardNodes.get(i), "rs" + i, "shard" + i, false);
      }
      GenericContainer<?> mongos = node(image, network, "mongos", reusable, tag, "mongos", "--configdb", "cfg/cfg:" + PORT);
      all.add(mongos);
      mongos.start();
      try (MongoClient client = MongoClients.create(directUrl(mongos))) {
        Document listed = client.getDatabase("admin").runCommand(new Document("listShards", 1));
        List<String> present = new ArrayList<>();
        for (Document shard : listed.getList("shards", Document.class, List.of())) {
          present.add(shard.getString("_id"));
        }
        for (int i = 0; i < shards; i++) {
          if (!present.contains("rs" + i)) {
            client.getDatabase("admin").runCommand(new Document("addShard", "rs" + i + "/shard" + i + ":" + PORT)
                .append("name", "rs" + i));
          }
        }
      }
      LOG.info("Throwaway MongoDB cluster ({} shards, {}) ready at {}", shards, image, directUrl(mongos));
      return new ThrowawayCluster(shards, reusable, network, all, mongos);
    } catch (RuntimeException e) {
      if (!reusable) {
        all.forEach(GenericContainer::stop);
        network.close();
      }
      throw e;
    }
  }

  private static GenericContainer<?> node(String image, Network network, String alias, boolean reusable, String tag,
      String... command) {
    List<String> args = new ArrayList<>(List.of(command));
    args.addAll(List.of("--bind_ip_all", "--port", Integer.toString(PORT)));
    if (!command[0].equals("mongos")) {
      args.addAll(List.of("--wiredTigerCacheSizeGB", "0.25"));  // several mongods share one machine
    }
    GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse(image))
        .withNetwork(network)
        .withNetworkAliases(alias)
        .withExposedPorts(PORT)
        .withCommand(args.toArray(String[]::new))
        .withLabel(LABEL, tag + "-" + alias)
        .withReuse(reusable)
        .waitingFor(Wait.forLogMessage("(?is).*waiting for connections.*", 1).withStartupTimeout(STARTUP));
    return container;
  }

  /** Initiates a one-member replica set (if not yet) and waits until its member is primary. */
  private static void initiate(GenericContainer<?> node, String name, String alias, boolean configServer) {
    try (MongoClient client = MongoClients.create(directUrl(node))) {
      Document config = new Document("_id", name)
          .append("members", List.of(new Document("_id", 0).append("host", alias + ":" + PORT)));
      if (configServer) {
        config.append("configsvr", true);
      }
      try {
        client.getDatabase("admin").runCommand(new Document("replSetInitiate", config));
      } catch (MongoCommandException e) {
        if (e.getErrorCode() != ALREADY_INITIALIZED) {
          throw e;
        }
      }
      long deadline = System.nanoTime() + STARTUP.toNanos();
      while (true) {
        Document hello = client.getDatabase("admin").runCommand(new Document("hello", 1));
        if (Boolean.TRUE.equals(hello.getBoolean("isWritablePrimary"))) {
          return;
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("Replica set " + name + " has no primary after " + STARTUP.toSeconds() + " s.");
        }
        sleep(250);
      }
    }
  }

  private static String directUrl(GenericContainer<?> container) {
    return "mongodb://" + container.getHost() + ":" + container.getMappedPort(PORT) + "/?directConnection=true";
  }

  /** A network with a fixed name, created when missing and never removed by Testcontainers (for reuse). */
  private static Network namedNetwork(String name) {
    DockerClient docker = DockerClientFactory.instance().client();
    String id = docker.listNetworksCmd().withNameFilter(name).exec().stream()
        .filter(n -> name.equals(n.getName()))
        .map(com.github.dockerjava.api.model.Network::getId)
        .findFirst()
        .orElseGet(() -> docker.createNetworkCmd().withName(name).exec().getId());
    return new Network() {
      @Override
      public String getId() {
        return id;
      }

      @Override
      public void close() {
        // kept, with the reused containers on it
      }
    };
  }

  private static void sleep(long millis) {
    try {
      TimeUnit.MILLISECONDS.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for a replica set", e);
    }
  }

  /** The URL of the router (or the standalone mongod) for {@code database}, as seen from this machine. */
  public String url(String database) {
    return "mongodb://" + router.getHost() + ":" + router.getMappedPort(PORT) + "/" + database;
  }

  public int shards() {
    return shards;
  }

  public boolean reusable() {
    return reusable;
  }

  /** Stops the containers and removes the network, unless the cluster is reusable (then it keeps running). */
  @Override
  public void close() {
    if (reusable) {
      return;
    }
    for (int i = containers.size() - 1; i >= 0; i--) {
      containers.get(i).stop();
    }
    network.close();
  }
}
