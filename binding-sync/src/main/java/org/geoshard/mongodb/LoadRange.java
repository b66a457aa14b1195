package org.geoshard.mongodb;

import java.util.Properties;
import org.bson.Document;

/**
 * The records a geo load inserts: restaurant numbers ({@code _id}) from {@code insertstart}, for
 * {@code insertcount} of them (all the rest when unset). Several clients each load their own range
 * into one collection, so a collection that already holds documents is only a problem when they lie
 * in this load's range.
 *
 * @param count null for "to the end of the dataset"
 */
record LoadRange(long start, Long count) {
  static LoadRange of(Properties properties) {
    long start = parse(properties.getProperty("insertstart"), 0L);
    String count = properties.getProperty("insertcount");
    return new LoadRange(start, count == null || count.isBlank() ? null : parse(count, null));
  }

  private static Long parse(String value, Long otherwise) {
    try {
      return value == null ? otherwise : Long.valueOf(value.trim());
    } catch (NumberFormatException e) {
      return otherwise;  // the harness refuses it before the start
    }
  }

  boolean split() {
    return start > 0 || count != null;
  }

  /** The filter of this range's documents. */
  Document filter() {
    Document bounds = new Document("$gte", start);
    if (count != null) {
      bounds.append("$lt", start + count);
    }
    return new Document("_id", bounds);
  }

  /** "records 100 to 199", "records from 100 on". */
  String describe() {
    return count == null ? "records from " + start + " on" : "records " + start + " to " + (start + count - 1);
  }
}
