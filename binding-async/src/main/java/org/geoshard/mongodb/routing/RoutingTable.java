package org.geoshard.mongodb.routing;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;
import org.bson.BsonTimestamp;
import org.bson.BsonValue;

/**
 * Where a sharded collection's data lives, as {@code config.chunks} said at one collection version: a
 * sorted map from each chunk's minimum to the chunk (and so its shard), in MongoDB's BSON order. A
 * key belongs to the chunk with the greatest minimum at or below it. Immutable; a refresh builds a new
 * table. An unsharded collection has a table with no chunks.
 */
public final class RoutingTable {
  /** One chunk: [min, max) of shard key values on {@code shard}, at version {@code lastmod}. */
  public record Chunk(BsonValue[] min, BsonValue[] max, String shard, BsonTimestamp lastmod) {
    public Chunk {
      Objects.requireNonNull(shard, "shard");
    }
  }

  /**
   * What identifies the collection behind the namespace: its uuid (and creation timestamp from 5.0) or,
   * before, its epoch; a drop and re-creation changes it, and with it the whole table.
   */
  public record Identity(BsonValue uuid, BsonValue epoch, BsonTimestamp timestamp) {
  }

  private final String namespace;
  private final ShardKeyPattern pattern;
  private final Identity identity;
  private final boolean chunksByUuid;
  private final BsonTimestamp version;
  private final NavigableMap<BsonValue[], Chunk> chunks;
  private final Map<String, String> shardHosts;

  RoutingTable(String namespace, ShardKeyPattern pattern, Identity identity, boolean chunksByUuid,
      NavigableMap<BsonValue[], Chunk> chunks, Map<String, String> shardHosts) {
    this.namespace = namespace;
    this.pattern = pattern;
    this.identity = identity;
    this.chunksByUuid = chunksByUuid;
    this.chunks = Collections.unmodifiableNavigableMap(chunks);
    this.shardHosts = Collections.unmodifiableMap(new LinkedHashMap<>(shardHosts));
    BsonTimestamp newest = null;
    for (Chunk chunk : chunks.values()) {
      if (newest == null || (chunk.lastmod() != null && Long.compareUnsigned(chunk.lastmod().getValue(), newest.getValue()) > 0)) {
        newest = chunk.lastmod();
      }
    }
    this.version = newest;
  }

  /** The table of a collection that is not sharded (every request goes to the default router). */
  public static RoutingTable unsharded(String namespace, Map<String, String> shardHosts) {
    return new RoutingTable(namespace, null, null, false, new TreeMap<>(BsonOrder.INSTANCE::compare), shardHosts);
  }

  public String namespace() {
    return namespace;
  }

  public boolean sharded() {
    return pattern != null;
  }

  /** Null when unsharded. */
  public ShardKeyPattern pattern() {
    return pattern;
  }

  /** Null when unsharded. */
  public Identity identity() {
    return identity;
  }

  /** True when {@code config.chunks} names the collection by uuid (5.0+ with a timestamp), false by ns. */
  public boolean chunksByUuid() {
    return chunksByUuid;
  }

  /** The collection version: the newest {@code lastmod} of its chunks (null when unsharded). */
  public BsonTimestamp version() {
    return version;
  }

  /** The chunks by minimum, in BSON order. */
  public NavigableMap<BsonValue[], Chunk> chunks() {
    return chunks;
  }

  /** Shard id to its host string ({@code rs0/h1:27018,h2:27018}) from {@code config.shards}. */
  public Map<String, String> shardHosts() {
    return shardHosts;
  }

  /** The shard that owns a full shard key value (as {@link ShardKeyPattern} builds it), or null when unsharded. */
  public String shardOf(BsonValue[] key) {
    Map.Entry<BsonValue[], Chunk> owner = chunks.floorEntry(key);
    return owner == null ? null : owner.getValue().shard();
  }

  /**
   * The one shard that owns every key starting with {@code prefix} (a full key is its own prefix), or
   * null when those keys span shards, the prefix is empty, or the collection is unsharded.
   */
  public String ownerOf(BsonValue[] prefix) {
    if (pattern == null || prefix.length == 0) {
      return null;
    }
    if (prefix.length == pattern.size()) {
      return shardOf(prefix);
    }
    BsonValue[][] range = pattern.range(prefix);
    BsonValue[] from = chunks.floorKey(range[0]);
    if (from == null) {
      return null;
    }
    String shard = null;
    for (Chunk chunk : chunks.subMap(from, true, range[1], true).values()) {
      if (shard == null) {
        shard = chunk.shard();
      } else if (!shard.equals(chunk.shard())) {
        return null;
      }
    }
    return shard;
  }

  /** Chunks per shard, sorted by shard id. */
  public Map<String, Integer> chunksPerShard() {
    Map<String, Integer> out = new TreeMap<>();
    for (Chunk chunk : chunks.values()) {
      out.merge(chunk.shard(), 1, Integer::sum);
    }
    return out;
  }

  /** The shard ids that own at least one chunk, sorted. */
  public List<String> owningShards() {
    return new ArrayList<>(chunksPerShard().keySet());
  }

  /** For run.json: key, version, chunks per shard. */
  public Map<String, Object> describe() {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("namespace", namespace);
    if (pattern == null) {
      out.put("sharded", false);
      return out;
    }
    out.put("shardKey", pattern.toString());
    out.put("chunksBy", chunksByUuid ? "uuid" : "ns");
    out.put("version", version == null ? null : version.getTime() + "|" + version.getInc());
    out.put("chunks", chunks.size());
    out.put("chunksPerShard", chunksPerShard());
    return out;
  }

  @Override
  public String toString() {
    return "RoutingTable{" + namespace + ", key=" + pattern + ", version=" + version + ", chunks=" + chunks.size() + "}";
  }
}
