package org.geoshard.mongodb.routing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.bson.BsonDocument;
import org.bson.BsonMaxKey;
import org.bson.BsonMinKey;
import org.bson.BsonNull;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.bson.Document;
import org.bson.types.MaxKey;
import org.bson.types.MinKey;

/**
 * A collection's shard key as {@code config.collections} stores it ({@code {_id: "hashed"}},
 * {@code {City: 1, _id: 1}}, dotted paths allowed, at most one hashed field), and the shard key value
 * of a document or a query in the form chunk bounds hold: one BSON value per field in key order, the
 * hashed field replaced by its {@link ShardKeyHash hash}. Immutable.
 */
public final class ShardKeyPattern {
  private static final BsonValue MIN = new BsonMinKey();
  private static final BsonValue MAX = new BsonMaxKey();

  private final String[] fields;
  private final String[][] paths;
  private final int hashedIndex;
  private final BsonDocument document;

  private ShardKeyPattern(String[] fields, int hashedIndex, BsonDocument document) {
    this.fields = fields;
    this.hashedIndex = hashedIndex;
    this.document = document;
    this.paths = new String[fields.length][];
    for (int i = 0; i < fields.length; i++) {
      paths[i] = fields[i].split("\\.");
    }
  }

  /**
   * The pattern of a stored key document.
   *
   * @throws IllegalArgumentException when it is empty, has a field that is neither 1 nor "hashed", or
   *     more than one hashed field
   */
  public static ShardKeyPattern of(BsonDocument key) {
    if (key == null || key.isEmpty()) {
      throw new IllegalArgumentException("a shard key needs at least one field");
    }
    String[] fields = new String[key.size()];
    int hashed = -1;
    int i = 0;
    for (Map.Entry<String, BsonValue> e : key.entrySet()) {
      BsonValue kind = e.getValue();
      fields[i] = e.getKey();
      if (kind.isString() && "hashed".equals(kind.asString().getValue())) {
        if (hashed >= 0) {
          throw new IllegalArgumentException("a shard key has at most one hashed field: " + key.toJson());
        }
        hashed = i;
      } else if (!(kind.isNumber() && kind.asNumber().doubleValue() == 1.0)) {
        throw new IllegalArgumentException("shard key field '" + e.getKey() + "' is neither 1 nor \"hashed\": " + key.toJson());
      }
      i++;
    }
    return new ShardKeyPattern(fields, hashed, key.clone());
  }

  /** From {@code mongodb.shardkey}'s form ({@code Name:hashed}, {@code City:1,_id:1}). */
  public static ShardKeyPattern parse(String text) {
    BsonDocument key = new BsonDocument();
    for (String part : text.split(",")) {
      String[] fieldKind = part.trim().split(":");
      if (fieldKind.length != 2) {
        throw new IllegalArgumentException("not field:kind: " + part);
      }
      String kind = fieldKind[1].trim();
      key.append(fieldKind[0].trim(), kind.equals("hashed") ? new BsonString("hashed") : new org.bson.BsonInt32(Integer.parseInt(kind)));
    }
    return of(key);
  }

  public int size() {
    return fields.length;
  }

  public String field(int i) {
    return fields[i];
  }

  /** The index of the hashed field, or -1 for a ranged key. */
  public int hashedIndex() {
    return hashedIndex;
  }

  /** The key document ({@code {_id: "hashed"}}). */
  public BsonDocument toDocument() {
    return document.clone();
  }

  /** The value of field {@code i} as bounds hold it: hashed when it is the hashed field. */
  public BsonValue boundValue(int i, BsonValue value) {
    return i == hashedIndex ? ShardKeyHash.hashed(value) : value;
  }

  /**
   * The full shard key value of a document about to be written: each field's value (a missing field
   * counts as null, as the server routes it), the hashed one hashed.
   */
  public BsonValue[] ofDocument(Document doc) {
    BsonValue[] key = new BsonValue[fields.length];
    for (int i = 0; i < fields.length; i++) {
      key[i] = boundValue(i, BsonValues.of(valueAt(doc, paths[i])));
    }
    return key;
  }

  /** As {@link #ofDocument(Document)} for a BSON document (a stored chunk bound uses {@link #ofBound}). */
  public BsonValue[] ofDocument(BsonDocument doc) {
    BsonValue[] key = new BsonValue[fields.length];
    for (int i = 0; i < fields.length; i++) {
      BsonValue v = doc;
      for (String step : paths[i]) {
        v = v != null && v.isDocument() ? v.asDocument().get(step) : null;
      }
      key[i] = boundValue(i, v == null ? BsonNull.VALUE : v);
    }
    return key;
  }

  /** A chunk bound ({@code min}/{@code max} of {@code config.chunks}) in key order; values as stored. */
  public BsonValue[] ofBound(BsonDocument bound) {
    BsonValue[] key = new BsonValue[fields.length];
    for (int i = 0; i < fields.length; i++) {
      BsonValue v = bound.get(fields[i]);
      if (v == null) {
        throw new IllegalArgumentException("chunk bound " + bound.toJson() + " lacks shard key field '" + fields[i] + "'");
      }
      key[i] = v;
    }
    return key;
  }

  /**
   * The leading shard key fields that a filter pins to one value ({@code {f: v}} or {@code {f: {$eq:
   * v}}}), in key order, as bounds hold them; an empty array when the first field is not pinned. A
   * prefix as long as the key is the full key.
   */
  public BsonValue[] ofFilter(Document filter) {
    List<BsonValue> prefix = new ArrayList<>(fields.length);
    for (int i = 0; i < fields.length; i++) {
      Object v = filter.get(fields[i]);
      if (v == null && !filter.containsKey(fields[i])) {
        break;
      }
      Object equal = equalityValue(v);
      if (equal == NOT_EQUALITY) {
        break;
      }
      prefix.add(boundValue(i, BsonValues.of(equal)));
    }
    return prefix.toArray(BsonValue[]::new);
  }

  private static final Object NOT_EQUALITY = new Object();

  private static Object equalityValue(Object v) {
    if (v instanceof Document d && !d.isEmpty() && d.keySet().iterator().next().startsWith("$")) {
      return d.size() == 1 && d.containsKey("$eq") ? equalityValue(d.get("$eq")) : NOT_EQUALITY;
    }
    if (v instanceof BsonDocument d && !d.isEmpty() && d.getFirstKey().startsWith("$")) {
      return d.size() == 1 && d.containsKey("$eq") ? equalityValue(d.get("$eq")) : NOT_EQUALITY;
    }
    if (v instanceof Pattern || v instanceof List<?> || v instanceof org.bson.BsonRegularExpression
        || v instanceof org.bson.BsonArray || v instanceof MinKey || v instanceof MaxKey) {
      return NOT_EQUALITY;
    }
    return v;
  }

  /**
   * The key of a lookup by one field's value ({@code {_id: key}}): a prefix of one value when the key
   * starts with that field, else an empty array (the lookup has no shard key).
   */
  public BsonValue[] ofField(String field, BsonValue value) {
    if (!fields[0].equals(field)) {
      return EMPTY;
    }
    return new BsonValue[] {boundValue(0, value)};
  }

  static final BsonValue[] EMPTY = new BsonValue[0];

  /** The lowest and highest bounds of a prefix: the rest of the fields MinKey, respectively MaxKey. */
  BsonValue[][] range(BsonValue[] prefix) {
    BsonValue[] lo = new BsonValue[fields.length];
    BsonValue[] hi = new BsonValue[fields.length];
    for (int i = 0; i < fields.length; i++) {
      lo[i] = i < prefix.length ? prefix[i] : MIN;
      hi[i] = i < prefix.length ? prefix[i] : MAX;
    }
    return new BsonValue[][] {lo, hi};
  }

  private static Object valueAt(Document doc, String[] path) {
    Object v = doc;
    for (String step : path) {
      if (v instanceof Document d) {
        v = d.get(step);
      } else if (v instanceof BsonDocument d) {
        v = d.get(step);
      } else if (v instanceof Map<?, ?> m) {
        v = m.get(step);
      } else {
        return null;
      }
    }
    return v;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ShardKeyPattern other && other.document.equals(document);
  }

  @Override
  public int hashCode() {
    return document.hashCode();
  }

  @Override
  public String toString() {
    return document.toJson();
  }
}
