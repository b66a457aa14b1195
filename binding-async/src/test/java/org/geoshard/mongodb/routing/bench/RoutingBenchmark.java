package org.geoshard.mongodb.routing.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.bson.BsonDocument;
import org.bson.BsonInt64;
import org.bson.BsonMaxKey;
import org.bson.BsonMinKey;
import org.bson.BsonString;
import org.bson.BsonTimestamp;
import org.bson.BsonValue;
import org.bson.Document;
import org.geoshard.mongodb.routing.ConfigDocuments;
import org.geoshard.mongodb.routing.Fixtures;
import org.geoshard.mongodb.routing.RoutingTable;
import org.geoshard.mongodb.routing.ShardKeyHash;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The per-request cost of the routing decision, as the binding makes it for a YCSB request: the key
 * as a BSON string, its shard key value (MongoDB's MD5-based hash for a hashed key), the chunk that
 * holds it (floor in the sorted map of chunk minimums) and the shard's router (a map look-up). Tables:
 * MongoDB 8.0's 3-shard presplit (3 chunks) and 3,000 chunks; a ranged compound key from a document.
 *
 * <p>Run: {@code binding-async/bench} (see binding-async/README.md). Target: under 1 µs per request.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RoutingBenchmark {
  @Param({"3", "3000"})
  public int chunks;

  private RoutingTable hashed;
  private RoutingTable ranged;
  private final Map<String, Object> endpoints = new HashMap<>();
  private String[] keys;
  private Document[] documents;
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    Fixtures f = Fixtures.load("config-8.0");
    hashed = chunks == 3 ? f.table() : ConfigDocuments.parse(f.namespace(), f.collection(), hashedChunks(f, chunks), f.shards());
    Fixtures r = Fixtures.load("config-7.0-ranged");
    ranged = r.table();
    for (String shard : List.of("shard01", "shard02", "shard03", "shard-us", "shard-eu", "shard-ap")) {
      endpoints.put(shard, new Object());
    }
    keys = new String[4096];
    documents = new Document[4096];
    String[] cities = {"Berlin", "Lyon", "Marseille", "Paris", "Zürich"};
    for (int i = 0; i < keys.length; i++) {
      keys[i] = "user" + site.ycsb.Utils.hash(i);  // CoreWorkload's key names (insertorder=hashed)
      documents[i] = new Document("_id", (long) i * 37).append("City", cities[i % cities.length]).append("Name", "x");
    }
  }

  /** {@code n} equal hashed ranges spread round-robin over the three shards. */
  private static List<BsonDocument> hashedChunks(Fixtures f, int n) {
    List<BsonDocument> out = new ArrayList<>();
    String[] shards = {"shard01", "shard02", "shard03"};
    BsonValue uuid = f.collection().get("uuid");
    double step = Math.pow(2, 64) / n;
    for (int i = 0; i < n; i++) {
      BsonValue min = i == 0 ? new BsonMinKey() : new BsonInt64((long) (-Math.pow(2, 63) + i * step));
      BsonValue max = i == n - 1 ? new BsonMaxKey() : new BsonInt64((long) (-Math.pow(2, 63) + (i + 1) * step));
      out.add(new BsonDocument("uuid", uuid).append("min", new BsonDocument("_id", min))
          .append("max", new BsonDocument("_id", max)).append("shard", new BsonString(shards[i % 3]))
          .append("lastmod", new BsonTimestamp(1, i)));
    }
    return out;
  }

  /** A YCSB read/update/delete by {@code _id} on a {@code {_id: "hashed"}} collection: the whole decision. */
  @Benchmark
  public Object hashedIdLookup() {
    String key = keys[next++ & 4095];
    String shard = hashed.ownerOf(hashed.pattern().ofField("_id", new BsonString(key)));
    return endpoints.get(shard);
  }

  /** The hash alone (MD5 of a short string). */
  @Benchmark
  public long hashOnly() {
    return ShardKeyHash.hash(new BsonString(keys[next++ & 4095]));
  }

  /** An insert on a ranged compound key {City: 1, _id: 1}: the key taken from the document, then the chunk. */
  @Benchmark
  public Object rangedDocumentLookup() {
    Document d = documents[next++ & 4095];
    return endpoints.get(ranged.ownerOf(ranged.pattern().ofDocument(d)));
  }
}
