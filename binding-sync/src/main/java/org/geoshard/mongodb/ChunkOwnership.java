package org.geoshard.mongodb;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import org.bson.Document;
import org.bson.types.MaxKey;
import org.bson.types.MinKey;
import org.bson.types.ObjectId;

/**
 * Which shards own given values of a ranged key's first field, read from {@code config.chunks}
 * documents ({@code min}, {@code max}, {@code shard}): the owners of a near query's covering cells under
 * the cell key, against which the router's own answer ({@code explain}) is set. A chunk is
 * [{@code min}, {@code max}) in the key's order; a compound key's later fields (the {@code _id} of
 * {@code cell:1,_id:1}) range over everything, so a cell belongs to every chunk that any key with that
 * first field falls in. Pure: no I/O.
 */
final class ChunkOwnership {
  private ChunkOwnership() {
  }

  /** The shards owning any of {@code values} (the key's first field), in name order. */
  static SortedSet<String> owners(List<Document> chunks, long[] values) {
    SortedSet<String> owners = new TreeSet<>();
    for (Document chunk : chunks) {
      Document min = chunk.get("min", Document.class);
      Document max = chunk.get("max", Document.class);
      for (long value : values) {
        // [value, MinKey...] to [value, MaxKey...]: every key whose first field is the value.
        if (compare(min, keyOf(min, value, new MaxKey())) <= 0 && compare(max, keyOf(max, value, new MinKey())) > 0) {
          owners.add(chunk.getString("shard"));
          break;
        }
      }
    }
    return owners;
  }

  /** The shards holding any chunk, in name order (where a query that targets nothing goes). */
  static SortedSet<String> holding(List<Document> chunks) {
    SortedSet<String> shards = new TreeSet<>();
    chunks.forEach(c -> shards.add(c.getString("shard")));
    return shards;
  }

  /** A key of the bound's fields: the first is the value, the rest {@code rest} (MinKey or MaxKey). */
  private static Document keyOf(Document bound, long value, Object rest) {
    Document key = new Document();
    boolean first = true;
    for (String field : bound.keySet()) {
      key.append(field, first ? (Object) value : rest);
      first = false;
    }
    return key;
  }

  /** Compares two keys of the same fields field by field, as the server orders BSON values. */
  static int compare(Document a, Document b) {
    List<Object> left = new ArrayList<>(a.values());
    List<Object> right = new ArrayList<>(b.values());
    for (int i = 0; i < Math.min(left.size(), right.size()); i++) {
      int c = compareValues(left.get(i), right.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(left.size(), right.size());
  }

  private static int compareValues(Object a, Object b) {
    int byType = Integer.compare(rank(a), rank(b));
    if (byType != 0) {
      return byType;
    }
    if (a instanceof Number x && b instanceof Number y) {
      return x instanceof Double || y instanceof Double ? Double.compare(x.doubleValue(), y.doubleValue())
          : Long.compare(x.longValue(), y.longValue());
    }
    if (a instanceof String x && b instanceof String y) {
      return x.compareTo(y);
    }
    if (a instanceof ObjectId x && b instanceof ObjectId y) {
      return x.compareTo(y);
    }
    return 0;  // no other type appears in the bounds of the keys the binding makes
  }

  /** The server's order of BSON types, for those a bound of the binding's keys may hold. */
  private static int rank(Object v) {
    if (v instanceof MinKey) {
      return 0;
    }
    if (v instanceof Number) {
      return 1;
    }
    if (v instanceof String) {
      return 2;
    }
    if (v instanceof Map<?, ?>) {
      return 3;
    }
    if (v instanceof ObjectId) {
      return 7;
    }
    return v instanceof MaxKey ? 127 : 10;
  }
}
