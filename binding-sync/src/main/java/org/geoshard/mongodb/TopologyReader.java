package org.geoshard.mongodb;

import com.mongodb.MongoCommandException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.bson.Document;
import org.geoshard.harness.api.Secrets;

/**
 * What the binding ran against, for {@code run.json}: server version, standalone, replica set or
 * sharded; on a cluster each shard with its hosts, its documents and chunks of the workload's collection,
 * and the balancer's state. Each part that cannot be read (privileges, old servers) is recorded as
 * {@code unavailable} with the reason instead of failing the whole.
 */
final class TopologyReader {
  private static final int NAMESPACE_NOT_FOUND = 26;

  private TopologyReader() {
  }

  /** @param collection the workload's collection in {@code settings}' database (the restaurants, usertable, History) */
  static Map<String, Object> describe(MongoClient client, ServerFacts facts, MongoSettings settings, String collection,
      CommandCounters counters) {
    String namespace = settings.connection().database() + "." + collection;
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("serverVersion", facts.version().toString());
    out.put("serverProduct", facts.product().name() + (facts.product().ownVersion() == null ? ""
        : " " + facts.product().ownVersion()));
    out.put("deployment", facts.kind().label());
    if (facts.replicaSet() != null) {
      out.put("replicaSet", facts.replicaSet());
      out.put("hosts", facts.hosts());
    }
    out.put("url", settings.connection().maskedUrl());
    out.put("namespace", namespace);
    Map<String, Long> documents = attempt(out, "documents",
        () -> documentsPerShard(client, settings.connection().database(), collection));
    if (documents != null) {
      out.put("documents", documents.values().stream().mapToLong(Long::longValue).sum());
    }
    if (facts.sharded()) {
      Document sharding = attempt(out, "shardKey", () -> CollectionChecks.shardingOf(client, namespace));
      out.put("shardKey", sharding == null ? "unsharded" : sharding.get("key", Document.class));
      Map<String, Long> chunks = sharding == null ? Map.of() : attempt(out, "chunks", () -> chunksPerShard(client, sharding));
      List<Document> shards = attempt(out, "shards", () -> client.getDatabase("admin")
          .runCommand(new Document("listShards", 1)).getList("shards", Document.class, List.of()));
      if (shards != null) {
        List<Map<String, Object>> list = new ArrayList<>();
        for (Document shard : shards) {
          String name = shard.getString("_id");
          Map<String, Object> entry = new LinkedHashMap<>();
          entry.put("name", name);
          entry.put("host", shard.getString("host"));
          if (shard.get("state") != null) {
            entry.put("state", shard.get("state"));
          }
          entry.put("documents", documents == null ? null : documents.getOrDefault(name, 0L));
          entry.put("chunks", chunks == null ? null : chunks.getOrDefault(name, 0L));
          list.add(entry);
        }
        out.put("shards", list);
      }
      Document balancer = attempt(out, "balancer", () -> client.getDatabase("admin").runCommand(new Document("balancerStatus", 1)));
      if (balancer != null) {
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("mode", balancer.get("mode"));
        state.put("inBalancerRound", balancer.get("inBalancerRound"));
        state.put("numBalancerRounds", balancer.get("numBalancerRounds"));
        out.put("balancer", state);
      }
    }
    List<String> indexes = attempt(out, "indexes", () -> indexNames(client, settings.connection().database(), collection));
    if (indexes != null) {
      out.put("indexes", indexes);
    }
    if (counters != null) {
      out.put("driverCommands", counters.snapshot());
    }
    return out;
  }

  /**
   * Documents of the geo collection per shard ({@code $collStats} count through the router; orphans
   * left by migrations are counted where they lie), or under "server" when not sharded.
   */
  static Map<String, Long> documentsPerShard(MongoClient client, MongoSettings settings) {
    return documentsPerShard(client, settings.connection().database(), settings.collection());
  }

  static Map<String, Long> documentsPerShard(MongoClient client, String database, String name) {
    MongoDatabase db = client.getDatabase(database);
    if (!db.listCollectionNames().into(new ArrayList<>()).contains(name)) {
      return Map.of();
    }
    MongoCollection<Document> collection = db.getCollection(name);
    Map<String, Long> out = new TreeMap<>();
    try {
      for (Document stats : collection.aggregate(List.of(new Document("$collStats", new Document("count", new Document()))))) {
        String shard = stats.getString("shard") == null ? "server" : stats.getString("shard");
        Object count = stats.get("count");
        out.merge(shard, count instanceof Number n ? n.longValue() : 0L, Long::sum);
      }
    } catch (MongoCommandException e) {
      if (e.getErrorCode() == NAMESPACE_NOT_FOUND) {
        return Map.of();
      }
      // $collStats is missing on some servers and test doubles: count the one server's documents instead.
      out.clear();
      out.put("server", collection.countDocuments());
    }
    return out;
  }

  /**
   * Chunks per shard from {@code config.chunks}: by the collection's uuid once its catalog entry has a
   * {@code timestamp} (5.0 with FCV 5.0 and later), by ns before (a 4.4 cluster, or FCV 4.4, has a uuid
   * but names chunks by ns): the rule the routing table follows.
   */
  static Map<String, Long> chunksPerShard(MongoClient client, Document sharding) {
    Document match = CatalogRules.chunksByUuid(sharding) ? new Document("uuid", sharding.get("uuid"))
        : new Document("ns", sharding.get("_id"));
    Map<String, Long> out = new TreeMap<>();
    for (Document group : client.getDatabase("config").getCollection("chunks").aggregate(List.of(
        new Document("$match", match),
        new Document("$group", new Document("_id", "$shard").append("n", new Document("$sum", 1)))))) {
      out.put(String.valueOf(group.get("_id")), ((Number) group.get("n")).longValue());
    }
    return out;
  }

  private static List<String> indexNames(MongoClient client, String database, String collection) {
    List<String> names = new ArrayList<>();
    for (Document index : client.getDatabase(database).getCollection(collection).listIndexes()) {
      names.add(index.getString("name"));
    }
    return names;
  }

  @FunctionalInterface
  private interface Read<T> {
    T get();
  }

  /** The value, or null with {@code <name>Unavailable} recorded. */
  private static <T> T attempt(Map<String, Object> out, String name, Read<T> read) {
    try {
      return read.get();
    } catch (RuntimeException e) {
      out.put(name + "Unavailable", Secrets.maskText(Failures.brief(e)));
      return null;
    }
  }
}
