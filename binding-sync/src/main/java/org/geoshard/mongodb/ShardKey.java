package org.geoshard.mongodb;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.bson.Document;

/**
 * A shard key as written in {@code mongodb.shardkey}: comma-separated {@code field:kind} parts, kind
 * {@code hashed} or {@code 1} (ranged), in key order. {@code Name:hashed} is the study's key;
 * {@code _id:hashed} and {@code City:1,_id:1} are other choices. Immutable.
 */
public final class ShardKey {
  /** One field of the key. */
  public record Part(String field, boolean hashed) {
    public Part {
      Objects.requireNonNull(field, "field");
    }
  }

  private final List<Part> parts;

  private ShardKey(List<Part> parts) {
    this.parts = List.copyOf(parts);
  }

  /**
   * Parses {@code text}, adding one sentence per problem to {@code problems} (naming
   * {@code property}); returns null when there were problems.
   */
  public static ShardKey parse(String property, String text, List<String> problems) {
    List<Part> parts = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    int before = problems.size();
    String expected = "comma-separated field:kind parts with kind 'hashed' or '1' (e.g. Name:hashed or City:1,_id:1)";
    for (String raw : text.split(",", -1)) {
      String part = raw.trim();
      int colon = part.lastIndexOf(':');
      if (part.isEmpty() || colon <= 0 || colon == part.length() - 1) {
        problems.add("Property '" + property + "' must be " + expected + ", but is '" + text + "'.");
        return null;
      }
      String field = part.substring(0, colon).trim();
      String kind = part.substring(colon + 1).trim().toLowerCase(Locale.ROOT);
      if (field.isEmpty() || field.startsWith("$")) {
        problems.add("Property '" + property + "' names the field '" + field + "', which cannot be a shard key field.");
      } else if (!seen.add(field)) {
        problems.add("Property '" + property + "' names the field '" + field + "' twice.");
      }
      boolean hashed;
      if (kind.equals("hashed")) {
        hashed = true;
      } else if (kind.equals("1")) {
        hashed = false;
      } else {
        problems.add("Property '" + property + "' gives field '" + field + "' the kind '" + part.substring(colon + 1).trim()
            + "'; a shard key field is 'hashed' or '1' (ranged).");
        hashed = false;
      }
      parts.add(new Part(field, hashed));
    }
    if (parts.stream().filter(Part::hashed).count() > 1) {
      problems.add("Property '" + property + "' has more than one hashed field; MongoDB allows one hashed field per shard key.");
    }
    return problems.size() == before ? new ShardKey(parts) : null;
  }

  /** Parses a key known to be valid (tests, constants); throws IllegalArgumentException otherwise. */
  public static ShardKey of(String text) {
    List<String> problems = new ArrayList<>();
    ShardKey key = parse("shard key", text, problems);
    if (key == null) {
      throw new IllegalArgumentException(String.join(" ", problems));
    }
    return key;
  }

  public List<Part> parts() {
    return parts;
  }

  public boolean hashed() {
    return parts.stream().anyMatch(Part::hashed);
  }

  /** True when the first field is the hashed one ({@code Name:hashed}, {@code _id:hashed,City:1}). */
  public boolean hashedPrefix() {
    return parts.get(0).hashed();
  }

  /** The key document of {@code shardCollection}: {@code {Name: "hashed"}}, {@code {City: 1, _id: 1}}. */
  public Document toDocument() {
    Document key = new Document();
    for (Part part : parts) {
      key.append(part.field(), part.hashed() ? "hashed" : (Object) 1);
    }
    return key;
  }

  /**
   * True when a key document as stored by the server ({@code config.collections}) is this key. Numbers
   * compare by value (the server may keep 1 as a double).
   */
  public boolean matches(Document stored) {
    if (stored == null || stored.size() != parts.size()) {
      return false;
    }
    int i = 0;
    for (var entry : stored.entrySet()) {
      Part part = parts.get(i++);
      if (!entry.getKey().equals(part.field())) {
        return false;
      }
      Object value = entry.getValue();
      boolean same = part.hashed() ? "hashed".equals(value)
          : value instanceof Number n && n.doubleValue() == 1.0;
      if (!same) {
        return false;
      }
    }
    return true;
  }

  /** As written in {@code mongodb.shardkey}. */
  @Override
  public String toString() {
    return parts.stream().map(p -> p.field() + ":" + (p.hashed() ? "hashed" : "1")).collect(Collectors.joining(","));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ShardKey other && other.parts.equals(parts);
  }

  @Override
  public int hashCode() {
    return parts.hashCode();
  }
}
