package org.geoshard.mongodb;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code mongodb.url=testcontainers:3s}: a throwaway cluster that the binding starts with Testcontainers
 * (Docker needed). {@code 0s} is one standalone mongod; {@code Ns} (1 to {@value #MAX_SHARDS}) is a
 * sharded cluster of a config server replica set, N one-member shard replica sets and one mongos.
 * {@code ?image=mongo:7.0} picks the image (default {@value #DEFAULT_IMAGE}).
 *
 * <p>Kept free of Testcontainers types, so that parsing settings never loads Testcontainers.
 */
public record ThrowawaySpec(int shards, String image) {
  public static final String PREFIX = "testcontainers:";
  public static final String DEFAULT_IMAGE = "mongo:8.0";
  public static final int MAX_SHARDS = 5;
  private static final Pattern FORM = Pattern.compile("testcontainers:(\\d+)s(?:\\?image=([A-Za-z0-9._/:@-]+))?");

  public ThrowawaySpec {
    if (shards < 0 || shards > MAX_SHARDS) {
      throw new IllegalArgumentException("shards must be 0 to " + MAX_SHARDS + ": " + shards);
    }
  }

  public static boolean isThrowaway(String url) {
    return url != null && url.startsWith(PREFIX);
  }

  /** Parses a {@code testcontainers:} URL; adds a problem naming {@code property} and returns null if malformed. */
  public static ThrowawaySpec parse(String property, String url, List<String> problems) {
    Matcher m = FORM.matcher(url);
    if (m.matches()) {
      int shards = Integer.parseInt(m.group(1));
      if (shards <= MAX_SHARDS) {
        return new ThrowawaySpec(shards, m.group(2) == null ? DEFAULT_IMAGE : m.group(2));
      }
    }
    problems.add("Property '" + property + "' must be testcontainers:0s, :2s or :3s (up to :" + MAX_SHARDS
        + "s; optionally ?image=mongo:7.0) for a throwaway cluster, but is '" + url + "'.");
    return null;
  }

  /** As written in {@code mongodb.url}. */
  public String url() {
    return PREFIX + shards + "s" + (image.equals(DEFAULT_IMAGE) ? "" : "?image=" + image);
  }
}
