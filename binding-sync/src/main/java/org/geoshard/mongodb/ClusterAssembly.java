package org.geoshard.mongodb;

import com.mongodb.MongoCommandException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.bson.Document;

/**
 * The commands that make started mongod and mongos processes one cluster ({@link ThrowawayCluster}),
 * kept apart from Testcontainers so that the version-rule tests can send them to a scripted router: a
 * {@code --replSet} node accepts no write until its set is initiated and it is primary
 * (NotWritablePrimary), so each set is initiated and waited for; shards are added once.
 */
final class ClusterAssembly {
  private static final int ALREADY_INITIALIZED = 23;
  private static final int COMMAND_NOT_FOUND = 59;

  private ClusterAssembly() {
  }

  /** Initiates a one-member replica set (if not yet) and waits until its member is a writable primary. */
  static void initiate(AdminCommands node, String name, String host, boolean configServer, Duration within,
      long pollMillis) {
    Document config = new Document("_id", name).append("members", List.of(new Document("_id", 0).append("host", host)));
    if (configServer) {
      config.append("configsvr", true);
    }
    try {
      node.run("admin", new Document("replSetInitiate", config));
    } catch (MongoCommandException e) {
      if (e.getErrorCode() != ALREADY_INITIALIZED) {
        throw e;
      }
    }
    long deadline = System.nanoTime() + within.toNanos();
    while (!writablePrimary(node)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("Replica set " + name + " has no primary after " + within.toSeconds() + " s.");
      }
      try {
        TimeUnit.MILLISECONDS.sleep(pollMillis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for replica set " + name, e);
      }
    }
  }

  /**
   * Whether the node takes writes: {@code hello} (new in 4.4.2, the manual says), else
   * {@code isMaster}, which every version answers, for a 4.4.0 or 4.4.1 image.
   */
  static boolean writablePrimary(AdminCommands node) {
    try {
      return Boolean.TRUE.equals(node.run("admin", new Document("hello", 1)).getBoolean("isWritablePrimary"));
    } catch (MongoCommandException e) {
      if (e.getErrorCode() != COMMAND_NOT_FOUND) {
        throw e;
      }
      return Boolean.TRUE.equals(node.run("admin", new Document("isMaster", 1)).getBoolean("ismaster"));
    }
  }

  /** Adds shard replica sets rs0..rs(n-1) (hosts shard0..) that the router does not list yet. */
  static List<String> addMissingShards(AdminCommands router, int shards, int port) {
    List<String> present = new ArrayList<>();
    for (Document shard : router.run("admin", new Document("listShards", 1)).getList("shards", Document.class, List.of())) {
      present.add(shard.getString("_id"));
    }
    List<String> added = new ArrayList<>();
    for (int i = 0; i < shards; i++) {
      if (!present.contains("rs" + i)) {
        router.run("admin", new Document("addShard", "rs" + i + "/shard" + i + ":" + port).append("name", "rs" + i));
        added.add("rs" + i);
      }
    }
    return added;
  }
}
