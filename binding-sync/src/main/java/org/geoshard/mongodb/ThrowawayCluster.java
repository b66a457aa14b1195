package org.geoshard.mongodb;

import com.github.dockerjava.api.DockerClient;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
 * N shard replica sets of one member each ({@code rs0} on host {@code shard0}, ...) and one mongos
 * (or several: {@link #start(int, String, boolean, int)}), the containers the client talks to (through
 * their mapped ports). The commands that join them go through {@link ClusterAssembly}, which the
 * version-rule tests check without Docker. Used by the container tests and by
 * {@code mongodb.url=testcontainers:3s}. Needs a Docker engine.
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

  private final int shards;
  private final boolean reusable;
  private final Network network;
  private final List<GenericContainer<?>> containers;
  private final List<GenericContainer<?>> routers;

  private ThrowawayCluster(int shards, boolean reusable, Network network, List<GenericContainer<?>> containers,
      List<GenericContainer<?>> routers) {
    this.shards = shards;
    this.reusable = reusable;
    this.network = network;
    this.containers = containers;
    this.routers = routers;
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
    return start(shards, image, reusable, 1);
  }

  /**
   * As {@link #start(int, String, boolean)}, with {@code routers} mongos (the 3-region layout puts one
   * next to each shard); {@link #url(int, String)} reaches each.
   */
  public static ThrowawayCluster start(int shards, String image, boolean reusable, int routers) {
    if (routers < 1 || (shards == 0 && routers != 1)) {
      throw new IllegalArgumentException("routers must be 1 or more (1 for a standalone): " + routers);
    }
    String tag = shards + "s";
    Network network = reusable ? namedNetwork("geoshard-" + tag) : Network.newNetwork();
    List<GenericContainer<?>> all = new ArrayList<>();
    try {
      if (shards == 0) {
        GenericContainer<?> mongod = node(image, network, "mongod", reusable, tag, "mongod");
        all.add(mongod);
        mongod.start();
        return new ThrowawayCluster(0, reusable, network, all, List.of(mongod));
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
      List<GenericContainer<?>> mongos = new ArrayList<>();
      for (int i = 0; i < routers; i++) {
        // The first keeps the alias "mongos", so that a reused 1-router cluster hashes as before.
        mongos.add(node(image, network, i == 0 ? "mongos" : "mongos" + i, reusable, tag, "mongos", "--configdb",
            "cfg/cfg:" + PORT));
      }
      all.addAll(mongos);
      Startables.deepStart(mongos).join();
      try (MongoClient client = MongoClients.create(directUrl(mongos.get(0)))) {
        ClusterAssembly.addMissingShards(AdminCommands.over(client), shards, PORT);
      }
      LOG.info("Throwaway MongoDB cluster ({} shards, {}) ready at {}", shards, image, directUrl(mongos.get(0)));
      return new ThrowawayCluster(shards, reusable, network, all, List.copyOf(mongos));
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
      ClusterAssembly.initiate(AdminCommands.over(client), name, alias + ":" + PORT, configServer, STARTUP, 250);
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

  /** The URL of the router (or the standalone mongod) for {@code database}, as seen from this machine. */
  public String url(String database) {
    return url(0, database);
  }

  /** The URL of router {@code i} (0 to routers - 1) for {@code database}. */
  public String url(int router, String database) {
    GenericContainer<?> r = routers.get(router);
    return "mongodb://" + r.getHost() + ":" + r.getMappedPort(PORT) + "/" + database;
  }

  public int routers() {
    return routers.size();
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
