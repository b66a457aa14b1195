package org.geoshard.mongodb.routing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.bson.BsonDocument;
import org.geoshard.mongodb.CatalogRules;
import org.bson.BsonTimestamp;
import org.bson.BsonValue;

/**
 * Builds a {@link RoutingTable} from the sharding catalog's documents, as MongoDB 4.4 to 8.0 write
 * them: {@code config.collections} ({@code _id} the namespace, {@code key}, {@code uuid}, {@code epoch}
 * or {@code lastmodEpoch}, {@code timestamp} from 5.0, {@code dropped} before 5.0), {@code config.chunks}
 * ({@code min}, {@code max}, {@code shard}, {@code lastmod}, and {@code uuid} or {@code ns}) and
 * {@code config.shards} ({@code _id}, {@code host}). Pure: no I/O, so that fixtures of every version
 * test it.
 */
public final class ConfigDocuments {
  private ConfigDocuments() {
  }

  /** Chunks name their collection by uuid when the collection document has a timestamp (5.0+), else by ns. */
  public static boolean chunksByUuid(BsonDocument collection) {
    return CatalogRules.chunksByUuid(collection);
  }

  /** True when the document describes a sharded collection (not dropped, not 8.0's unsplittable). */
  public static boolean sharded(BsonDocument collection) {
    return CatalogRules.sharded(collection);
  }

  /** What identifies the collection: uuid, epoch, creation timestamp. */
  public static RoutingTable.Identity identity(BsonDocument collection) {
    BsonValue epoch = collection.containsKey("lastmodEpoch") ? collection.get("lastmodEpoch") : collection.get("epoch");
    BsonValue timestamp = collection.get("timestamp");
    return new RoutingTable.Identity(collection.get("uuid"), epoch,
        timestamp != null && timestamp.isTimestamp() ? timestamp.asTimestamp() : null);
  }

  /** True when the collection document still describes the table's collection with the table's key. */
  public static boolean sameCollection(RoutingTable table, BsonDocument collection) {
    if (!sharded(collection)) {
      return !table.sharded();
    }
    return table.sharded() && identity(collection).equals(table.identity())
        && ShardKeyPattern.of(collection.getDocument("key")).equals(table.pattern());
  }

  /**
   * The table of {@code namespace}.
   *
   * @param collection its {@code config.collections} document, or null (unsharded)
   * @param chunks {@code config.chunks} documents (those of other collections are ignored)
   * @param shards {@code config.shards} documents, in any order
   * @throws IllegalArgumentException when the chunks do not cover the key space from MinKey to MaxKey
   *     without gaps or overlaps, or a bound lacks a key field
   */
  public static RoutingTable parse(String namespace, BsonDocument collection, List<BsonDocument> chunks,
      List<BsonDocument> shards) {
    Map<String, String> hosts = new TreeMap<>();
    for (BsonDocument shard : shards) {
      hosts.put(shard.getString("_id").getValue(), shard.containsKey("host") ? shard.getString("host").getValue() : "");
    }
    if (!sharded(collection)) {
      return RoutingTable.unsharded(namespace, hosts);
    }
    ShardKeyPattern pattern = ShardKeyPattern.of(collection.getDocument("key"));
    boolean byUuid = chunksByUuid(collection);
    BsonValue uuid = collection.get("uuid");
    TreeMap<BsonValue[], RoutingTable.Chunk> byMin = new TreeMap<>(BsonOrder.INSTANCE::compare);
    for (BsonDocument chunk : chunks) {
      boolean mine = byUuid ? uuid.equals(chunk.get("uuid"))
          : chunk.containsKey("ns") && namespace.equals(chunk.getString("ns").getValue());
      if (!mine) {
        continue;
      }
      BsonValue[] min = pattern.ofBound(chunk.getDocument("min"));
      BsonValue[] max = pattern.ofBound(chunk.getDocument("max"));
      BsonValue lastmod = chunk.get("lastmod");
      RoutingTable.Chunk parsed = new RoutingTable.Chunk(min, max, chunk.getString("shard").getValue(),
          lastmod != null && lastmod.isTimestamp() ? lastmod.asTimestamp() : null);
      if (byMin.put(min, parsed) != null) {
        throw new IllegalArgumentException(namespace + ": two chunks start at " + describe(min));
      }
    }
    checkCoverage(namespace, byMin);
    return new RoutingTable(namespace, pattern, identity(collection), byUuid, byMin, hosts);
  }

  /** The chunks must run from MinKey to MaxKey, each one's max the next one's min. */
  private static void checkCoverage(String namespace, TreeMap<BsonValue[], RoutingTable.Chunk> byMin) {
    if (byMin.isEmpty()) {
      throw new IllegalArgumentException(namespace + " is sharded but config.chunks holds no chunk of it");
    }
    BsonValue[] expected = null;
    for (RoutingTable.Chunk chunk : byMin.values()) {
      if (expected == null) {
        for (BsonValue v : chunk.min()) {
          if (v.getBsonType() != org.bson.BsonType.MIN_KEY) {
            throw new IllegalArgumentException(namespace + ": the first chunk starts at " + describe(chunk.min())
                + ", not at MinKey");
          }
        }
      } else if (BsonOrder.INSTANCE.compare(expected, chunk.min()) != 0) {
        throw new IllegalArgumentException(namespace + ": a chunk ends at " + describe(expected)
            + " but the next one starts at " + describe(chunk.min()));
      }
      expected = chunk.max();
    }
    for (BsonValue v : expected) {
      if (v.getBsonType() != org.bson.BsonType.MAX_KEY) {
        throw new IllegalArgumentException(namespace + ": the last chunk ends at " + describe(expected) + ", not at MaxKey");
      }
    }
  }

  static String describe(BsonValue[] key) {
    List<String> parts = new ArrayList<>();
    for (BsonValue v : key) {
      parts.add(new BsonDocument("v", v).toJson().replaceFirst("^\\{\"v\": ", "").replaceFirst("}$", ""));
    }
    return "[" + String.join(", ", parts) + "]";
  }

  /** Newest of two versions (unsigned timestamp order); either may be null. */
  public static BsonTimestamp newer(BsonTimestamp a, BsonTimestamp b) {
    if (a == null) {
      return b;
    }
    if (b == null) {
      return a;
    }
    return Long.compareUnsigned(a.getValue(), b.getValue()) >= 0 ? a : b;
  }

  /** Reads and parses a table through a source. */
  public static RoutingTable load(ConfigSource source, String namespace) {
    BsonDocument collection = source.collection(namespace);
    List<BsonDocument> shards = source.shards();
    if (!sharded(collection)) {
      return parse(namespace, null, List.of(), shards);
    }
    return parse(namespace, collection, source.chunks(namespace, collection), shards);
  }
}
