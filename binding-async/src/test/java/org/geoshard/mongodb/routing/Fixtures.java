package org.geoshard.mongodb.routing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonValue;

/**
 * The {@code config.*} fixtures: what {@code config.collections}, {@code config.chunks} and
 * {@code config.shards} hold on MongoDB 5.0 (chunks by ns and by uuid), 6.0, 7.0 and 8.0 after a hashed
 * {@code _id} key was presplit into one chunk per shard, with the documents and shards shuffled and
 * other collections' entries around (config.system.sessions), plus a ranged compound key on 7.0.
 */
public record Fixtures(String name, String namespace, BsonDocument expected, List<BsonDocument> collections,
                       List<BsonDocument> chunks, List<BsonDocument> shards) {
  public static final String NAMESPACE = "ycsb.usertable";
  public static final List<String> HASHED = List.of("config-5.0-ns", "config-5.0-uuid", "config-6.0", "config-7.0",
      "config-8.0");

  public static Fixtures load(String name) {
    try (InputStream in = Fixtures.class.getResourceAsStream("/fixtures/" + name + ".json")) {
      if (in == null) {
        throw new IllegalArgumentException("no fixture " + name);
      }
      BsonDocument d = BsonDocument.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      String ns = d.containsKey("namespace") ? d.getString("namespace").getValue() : NAMESPACE;
      return new Fixtures(name, ns, d.getDocument("expected", new BsonDocument()), docs(d.getArray("collections")),
          docs(d.getArray("chunks")), docs(d.getArray("shards")));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<BsonDocument> docs(BsonArray array) {
    List<BsonDocument> out = new ArrayList<>();
    for (BsonValue v : array) {
      out.add(v.asDocument());
    }
    return out;
  }

  public BsonDocument collection() {
    return collection(namespace);
  }

  public BsonDocument collection(String ns) {
    return collections.stream().filter(c -> c.getString("_id").getValue().equals(ns)).findFirst().orElse(null);
  }

  public RoutingTable table() {
    return ConfigDocuments.parse(namespace, collection(), chunks, shards);
  }

  /** A source over the fixture's documents, as a router would answer. */
  public ConfigSource source() {
    Fixtures f = this;
    return new ConfigSource() {
      @Override
      public BsonDocument collection(String ns) {
        return f.collection(ns);
      }

      @Override
      public List<BsonDocument> chunks(String ns, BsonDocument collection) {
        BsonDocument filter = ConfigSource.chunkFilter(ns, collection);
        String field = filter.getFirstKey();
        return f.chunks.stream().filter(c -> filter.get(field).equals(c.get(field))).toList();
      }

      @Override
      public org.bson.BsonTimestamp newestLastmod(String ns, BsonDocument collection) {
        org.bson.BsonTimestamp newest = null;
        for (BsonDocument c : chunks(ns, collection)) {
          newest = ConfigDocuments.newer(newest, c.getTimestamp("lastmod"));
        }
        return newest;
      }

      @Override
      public List<BsonDocument> shards() {
        return f.shards;
      }
    };
  }
}
