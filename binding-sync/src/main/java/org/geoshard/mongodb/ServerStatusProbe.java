package org.geoshard.mongodb;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.ReadPreference;
import com.mongodb.ServerAddress;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.connection.ClusterConnectionMode;
import com.mongodb.connection.ClusterSettings;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.bson.Document;
import org.geoshard.harness.api.ServerProbe;

/**
 * Samples one MongoDB node with {@code serverStatus} (a monitoring command; never the benchmark's
 * data) on a client of its own: one {@code mongos}, the primary of one shard's replica set (found by
 * the client, so a failover moves the probe with it), the config server's primary, or a standalone.
 * The client takes the credentials and TLS settings of {@code mongodb.url}; only the hosts differ.
 */
final class ServerStatusProbe implements ServerProbe {
  /** The sections a probe does not need: they are large and serverStatus leaves them out when asked. */
  static final Document COMMAND = new Document("serverStatus", 1).append("repl", 0).append("metrics", 0)
      .append("locks", 0).append("tcmalloc", 0).append("transactions", 0).append("storageEngine", 0);

  /** The longest a reading may wait for its node (selection, connection, answer). */
  static final long MAX_WAIT_MS = 5000;

  private final String node;
  private final String role;
  private final MongoClient client;

  private ServerStatusProbe(String node, String role, MongoClient client) {
    this.node = node;
    this.role = role;
    this.client = client;
  }

  /**
   * A probe of {@code hosts} ({@code host:port}): one host alone, or a replica set's members when
   * {@code replicaSet} is given (the command then goes to its primary).
   */
  static ServerStatusProbe open(String node, String role, List<String> hosts, String replicaSet, ConnectionString url,
      MongoSettings settings) {
    List<ServerAddress> addresses = hosts.stream().map(ServerStatusProbe::address).toList();
    // A node that is down must cost the sampler's round seconds, not the benchmark's long timeouts.
    long waitMs = Math.min(settings.connection().serverSelectionTimeout(TimeUnit.MILLISECONDS), MAX_WAIT_MS);
    ClusterSettings.Builder cluster = ClusterSettings.builder().hosts(addresses)
        .serverSelectionTimeout(waitMs, TimeUnit.MILLISECONDS);
    if (replicaSet != null) {
      cluster.mode(ClusterConnectionMode.MULTIPLE).requiredReplicaSetName(replicaSet);
    } else {
      cluster.mode(ClusterConnectionMode.SINGLE);
    }
    ClusterSettings clusterSettings = cluster.build();
    MongoClientSettings.Builder builder = MongoClientSettings.builder().applyConnectionString(url)
        .applyToClusterSettings(b -> b.applySettings(clusterSettings))
        .applyToConnectionPoolSettings(b -> b.maxSize(1).minSize(0))  // one connection per node
        .readPreference(ReadPreference.primary())
        .timeout(MAX_WAIT_MS, TimeUnit.MILLISECONDS)
        .applyToSocketSettings(b -> b.connectTimeout((int) MAX_WAIT_MS, TimeUnit.MILLISECONDS))
        .applicationName("geoshard-observer");
    return new ServerStatusProbe(node, role, MongoClients.create(builder.build()));
  }

  static ServerAddress address(String hostPort) {
    int colon = hostPort.lastIndexOf(':');
    if (colon < 0 || hostPort.endsWith("]")) {
      return new ServerAddress(hostPort);
    }
    return new ServerAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
  }

  @Override
  public String node() {
    return node;
  }

  @Override
  public String role() {
    return role;
  }

  @Override
  public Map<String, Double> sample() {
    return metrics(client.getDatabase("admin").runCommand(COMMAND));
  }

  /** What a probe keeps of a serverStatus answer; sections a server does not report are left out. */
  static Map<String, Double> metrics(Document status) {
    Map<String, Double> out = new TreeMap<>();
    Document ops = status.get("opcounters", Document.class);
    if (ops != null) {
      for (String op : List.of("insert", "query", "update", "delete", "getmore", "command")) {
        put(out, "mongodb_opcounters_total." + op, ops.get(op));
      }
    }
    Document lock = status.get("globalLock", Document.class);
    if (lock != null) {
      Document active = lock.get("activeClients", Document.class);
      Document queue = lock.get("currentQueue", Document.class);
      if (active != null) {
        put(out, "mongodb_active.readers", active.get("readers"));
        put(out, "mongodb_active.writers", active.get("writers"));
      }
      if (queue != null) {
        put(out, "mongodb_queued.readers", queue.get("readers"));
        put(out, "mongodb_queued.writers", queue.get("writers"));
      }
    }
    // Storage-engine tickets: queues.execution where the server has it (8.0 names it), else wiredTiger.concurrentTransactions.
    Document execution = Nested.at(status, "queues", "execution");
    Document tickets = execution != null ? execution : Nested.at(status, "wiredTiger", "concurrentTransactions");
    if (tickets != null) {
      for (String kind : List.of("read", "write")) {
        Document t = tickets.get(kind, Document.class);
        if (t != null) {
          put(out, "mongodb_tickets_in_use." + kind, t.get("out"));
          put(out, "mongodb_tickets_available." + kind, t.get("available"));
        }
      }
    }
    Document cache = Nested.at(status, "wiredTiger", "cache");
    if (cache != null) {
      put(out, "mongodb_cache_bytes", cache.get("bytes currently in the cache"));
      put(out, "mongodb_cache_dirty_bytes", cache.get("tracked dirty bytes in the cache"));
      put(out, "mongodb_cache_max_bytes", cache.get("maximum bytes configured"));
      put(out, "mongodb_cache_evicted_pages_total.modified", cache.get("modified pages evicted"));
      put(out, "mongodb_cache_evicted_pages_total.unmodified", cache.get("unmodified pages evicted"));
      put(out, "mongodb_cache_read_pages_total", cache.get("pages read into cache"));
    }
    Document connections = status.get("connections", Document.class);
    if (connections != null) {
      put(out, "mongodb_connections.current", connections.get("current"));
      put(out, "mongodb_connections.available", connections.get("available"));
      put(out, "mongodb_connections_created_total", connections.get("totalCreated"));
    }
    Document network = status.get("network", Document.class);
    if (network != null) {
      put(out, "mongodb_network_bytes_in_total", network.get("bytesIn"));
      put(out, "mongodb_network_bytes_out_total", network.get("bytesOut"));
      put(out, "mongodb_network_requests_total", network.get("numRequests"));
    }
    return out;
  }

  private static void put(Map<String, Double> out, String name, Object value) {
    if (value instanceof Number n) {
      out.put(name, n.doubleValue());
    }
  }

  @Override
  public void close() {
    client.close();
  }
}
