package org.geoshard.mongodb;

import com.mongodb.MongoCommandException;
import com.mongodb.ServerAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.bson.BsonDocument;
import org.bson.Document;
import org.bson.types.MaxKey;
import org.bson.types.MinKey;

/**
 * Test code, not a MongoDB: a rulebook, per server version, of what a router (or a mongod) answers to
 * the layout's commands and what it refuses, as {@code ansible/tests/test_shard_collection.py} scripts
 * the playbook's module. It keeps only what the rules need: whether the set is initiated, the databases
 * with sharding enabled, and one collection's chunks on the first key field. Each rule names its source:
 * <ul>
 *   <li>{@code shardCollection} of a database without {@code enableSharding}: refused before FCV 6.0
 *       (DOCS-15138: from 6.0 shardCollection enables the database itself).</li>
 *   <li>{@code moveRange}: no such command before 6.0 (DOCS-15363); {@code moveChunk} answered by all.</li>
 *   <li>{@code numInitialChunks}: honoured for a hashed key on an empty collection before 7.2, ignored from
 *       7.2 (one chunk per shard; SERVER-74747, SERVER-76405).</li>
 *   <li>an upsert whose filter lacks the whole shard key: refused before 7.0 (ShardKeyNotFound, "Failed to
 *       target upsert by query"); 7.0 sends it through the write-without-shard-key protocol (SERVER-75194,
 *       7.0.0-rc0).
 *       The binding's LKL upsert does not go through {@link AdminCommands}: under a key beyond {@code _id}
 *       it names the whole key, which {@code WholeKeyUpsertTest} holds every write to (the rule also
 *       covers SERVER-106069, a key change without the whole key).</li>
 *   <li>a write to a {@code --replSet} node whose set was never initiated: NotWritablePrimary (10107).</li>
 *   <li>{@code hello}: new in 4.4.2 (the manual); before it CommandNotFound, {@code isMaster} answers.</li>
 *   <li>while a balancer round migrates a chunk of the collection ({@link #conflicts}): the next N splits
 *       refused with LockBusy (46; a split waits 5 s for the migration, then gives up:
 *       ActiveMigrationsRegistry::registerSplitOrMergeChunk) and moves with ConflictingOperationInProgress
 *       (117).</li>
 * </ul>
 */
final class ScriptedRouter implements AdminCommands {
  private final ServerVersion version;
  private final int shards;
  private final boolean replSetNode;
  private boolean initiated;
  private int helloBeforePrimary;
  private int splitConflicts;
  private int moveConflicts;
  private final Set<String> shardingEnabled = new HashSet<>();
  private final Set<String> shardNames = new java.util.TreeSet<>();
  /** The sharded collection's chunks by lower bound (first key field; MinKey as Long.MIN_VALUE). */
  private final TreeMap<Long, String> chunks = new TreeMap<>();
  private String shardKeyField;
  final List<String> sent = new ArrayList<>();

  /** A router of {@code shards} shards rs0.., binary and FCV {@code version}. */
  static ScriptedRouter router(String version, int shards) {
    ScriptedRouter router = new ScriptedRouter(ServerVersion.parse(version), shards, false);
    for (int i = 0; i < shards; i++) {
      router.shardNames.add("rs" + i);
    }
    return router;
  }

  /** A mongod started with {@code --replSet}, not initiated; primary at the {@code helloBeforePrimary}+1th hello. */
  static ScriptedRouter replSetNode(String version, int helloBeforePrimary) {
    ScriptedRouter node = new ScriptedRouter(ServerVersion.parse(version), 0, true);
    node.helloBeforePrimary = helloBeforePrimary;
    return node;
  }

  private ScriptedRouter(ServerVersion version, int shards, boolean replSetNode) {
    this.version = version;
    this.shards = shards;
    this.replSetNode = replSetNode;
  }

  /** The next {@code n} splits are refused with LockBusy, and the next {@code n} moves with ConflictingOperationInProgress. */
  ScriptedRouter conflicts(int n) {
    splitConflicts = n;
    moveConflicts = n;
    return this;
  }

  @Override
  public Document run(String database, Document command) {
    String name = command.keySet().iterator().next();
    sent.add(name);
    switch (name) {
      case "hello" -> {
        if (version.compareTo(new ServerVersion(4, 4, 2)) < 0) {
          throw refused(59, "CommandNotFound", "no such command: 'hello'");
        }
        return ok().append("isWritablePrimary", primary());
      }
      case "isMaster" -> {
        return ok().append("ismaster", primary());
      }
      case "replSetInitiate" -> {
        if (initiated) {
          throw refused(23, "AlreadyInitialized", "already initialized");
        }
        initiated = true;
        return ok();
      }
      case "insert", "update" -> {
        if (replSetNode && !primary()) {
          throw refused(10107, "NotWritablePrimary", "not primary");
        }
        if (name.equals("update")) {
          refuseUntargetedUpserts(command);
        }
        return ok().append("n", 1);
      }
      case "listShards" -> {
        return ok().append("shards", shardNames.stream().map(s -> new Document("_id", s)).toList());
      }
      case "addShard" -> {
        shardNames.add(command.getString("name"));
        return ok();
      }
      case "enableSharding" -> {
        shardingEnabled.add(command.getString("enableSharding"));
        return ok();
      }
      case "shardCollection" -> {
        return shardCollection(command);
      }
      case "split" -> {
        if (splitConflicts > 0) {
          splitConflicts--;
          throw refused(46, "LockBusy", "Timed out waiting for concurrent migration to finish");
        }
        long at = first(command.get("middle", Document.class));
        chunks.put(at, chunks.floorEntry(at).getValue());
        return ok();
      }
      case "moveRange" -> {
        if (!version.atLeast(6, 0)) {
          throw refused(59, "CommandNotFound", "no such command: 'moveRange'");
        }
        conflict();
        return move(first(command.get("min", Document.class)), command.getString("toShard"));
      }
      case "moveChunk" -> {
        conflict();
        return move(first(command.getList("bounds", Document.class).get(0)), command.getString("to"));
      }
      default -> throw refused(59, "CommandNotFound", "no such command: '" + name + "'");
    }
  }

  private Document shardCollection(Document command) {
    String namespace = command.getString("shardCollection");
    String db = namespace.substring(0, namespace.indexOf('.'));
    if (!version.atLeast(6, 0) && !shardingEnabled.contains(db)) {
      throw refused(20, "IllegalOperation", "sharding not enabled for db " + db);
    }
    Document key = command.get("key", Document.class);
    shardKeyField = key.keySet().iterator().next();
    boolean hashed = "hashed".equals(key.get(shardKeyField));
    chunks.clear();
    if (!hashed) {
      chunks.put(Long.MIN_VALUE, "rs0");  // a ranged key: one chunk on the primary shard
      return ok();
    }
    Integer wanted = command.getInteger("numInitialChunks");
    int n = !version.atLeast(7, 2) ? (wanted == null ? 2 * shards : wanted) : shards;
    for (int i = 0; i < n; i++) {
      chunks.put(i == 0 ? Long.MIN_VALUE : Long.MIN_VALUE + (Long.MAX_VALUE / n) * 2 * i, "rs" + (i % shards));
    }
    return ok();
  }

  private void refuseUntargetedUpserts(Document command) {
    for (Document update : command.getList("updates", Document.class)) {
      if (Boolean.TRUE.equals(update.getBoolean("upsert")) && shardKeyField != null
          && !update.get("q", Document.class).containsKey(shardKeyField) && !version.atLeast(7, 0)) {
        throw refused(61, "ShardKeyNotFound", "Failed to target upsert by query :: could not extract exact shard key");
      }
    }
  }

  private Document move(long min, String to) {
    if (!chunks.containsKey(min)) {
      throw refused(72, "InvalidOptions", "no chunk starts at " + min);
    }
    chunks.put(min, to);
    return ok();
  }

  private void conflict() {
    if (moveConflicts > 0) {
      moveConflicts--;
      throw refused(117, "ConflictingOperationInProgress", "the balancer is migrating a chunk of this collection");
    }
  }

  private boolean primary() {
    if (!replSetNode) {
      return true;
    }
    if (!initiated) {
      return false;
    }
    return helloBeforePrimary-- <= 0;
  }

  /** The chunks as config.chunks documents of the first key field (min, max, shard). */
  List<Document> chunks() {
    List<Document> out = new ArrayList<>();
    List<Map.Entry<Long, String>> entries = new ArrayList<>(chunks.entrySet());
    for (int i = 0; i < entries.size(); i++) {
      long min = entries.get(i).getKey();
      out.add(new Document("min", bound(min)).append("max", i + 1 < entries.size()
          ? bound(entries.get(i + 1).getKey()) : new Document(shardKeyField, new MaxKey()))
          .append("shard", entries.get(i).getValue()));
    }
    return out;
  }

  int chunkCount() {
    return chunks.size();
  }

  private Document bound(long value) {
    return new Document(shardKeyField, value == Long.MIN_VALUE ? new MinKey() : (Object) value);
  }

  private static long first(Document bound) {
    Object value = bound.values().iterator().next();
    return value instanceof Number n ? n.longValue() : Long.MIN_VALUE;
  }

  private static Document ok() {
    return new Document("ok", 1);
  }

  private static MongoCommandException refused(int code, String codeName, String message) {
    return new MongoCommandException(BsonDocument.parse(new Document("ok", 0).append("code", code)
        .append("codeName", codeName).append("errmsg", message).toJson()), new ServerAddress("scripted", 27017));
  }
}
