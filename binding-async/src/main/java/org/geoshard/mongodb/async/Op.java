package org.geoshard.mongodb.async;

/** The kinds of request the binding sends, counted per endpoint. */
enum Op {
  INSERT, READ, UPDATE, DELETE, SCAN, GEO_INSERT, GEO_NEAR, HISTORY_INSERT, LKL_UPSERT, LKL_READ, HISTORY_RANGE, LKL_NEAR;

  static final Op[] ALL = values();
}
