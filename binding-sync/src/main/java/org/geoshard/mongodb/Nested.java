package org.geoshard.mongodb;

import org.bson.Document;

/** Reads a server's answer whose sections vary with its version: a missing or odd section is null, not an error. */
final class Nested {
  private Nested() {
  }

  /** The document at {@code keys} below {@code root}, or null when root is null or any step is not a document. */
  static Document at(Document root, String... keys) {
    Document d = root;
    for (String key : keys) {
      if (d == null || !(d.get(key) instanceof Document next)) {
        return null;
      }
      d = next;
    }
    return d;
  }
}
