package org.geoshard.mongodb;

import org.bson.Document;
import org.geoshard.harness.api.DataDeclaration;

/**
 * The records a geo load inserts: restaurant numbers ({@code _id}) from {@code insertstart}, for
 * {@code insertcount} of them (all the rest when unset). Several clients each load their own range
 * into one collection, so a collection that already holds documents is only a problem when they lie
 * in this load's range.
 *
 * @param count null for "to the end of the dataset"
 */
record LoadRange(long start, Long count) {
  /** The range the workload's declaration gives this client ({@code insertstart}, {@code insertcount}). */
  static LoadRange of(DataDeclaration data) {
    return new LoadRange(data.insertStart(), data.insertCount());
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
