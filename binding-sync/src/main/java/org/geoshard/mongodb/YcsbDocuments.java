package org.geoshard.mongodb;

import java.util.Map;
import java.util.Set;
import org.bson.Document;
import org.bson.types.Binary;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.StringByteIterator;

/** YCSB's records as MongoDB documents, for both MongoDB bindings: {@code _id} is the key, fields are binary. */
public final class YcsbDocuments {
  private YcsbDocuments() {
  }

  /** A projection of the given fields. */
  public static Document projection(Set<String> fields) {
    Document projection = new Document();
    fields.forEach(f -> projection.append(f, 1));
    return projection;
  }

  /** Binary values as bytes, strings as strings (documents written by other tools); {@code _id} is the key, not a field. */
  public static void fill(Map<String, ByteIterator> result, Document document) {
    for (Map.Entry<String, Object> field : document.entrySet()) {
      if (field.getKey().equals("_id")) {
        continue;
      }
      Object value = field.getValue();
      if (value instanceof Binary binary) {
        result.put(field.getKey(), new ByteArrayByteIterator(binary.getData()));
      } else if (value instanceof String text) {
        result.put(field.getKey(), new StringByteIterator(text));
      }
    }
  }
}
