package org.geoshard.mongodb;

import static org.geoshard.mongodb.MongoSettings.INDEX_POLL_MS;
import static org.geoshard.mongodb.MongoSettings.INDEX_TIMEOUT_MS;
import static org.geoshard.mongodb.MongoSettings.INDEX_WHEN;
import static org.geoshard.mongodb.MongoSettings.NUM_INITIAL_CHUNKS;
import static org.geoshard.mongodb.MongoSettings.SHARD_KEY;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.mongodb.MongoSettings.IndexWhen;

/**
 * How the bindings prepare the geo collection, immutable: whether it is dropped, how it is sharded (and
 * presplit), and when and how its 2dsphere index is built. Equal when every value is.
 */
public final class MongoPreparationSettings {
  private final boolean drop;
  private final ShardKey shardKey;
  private final Integer numInitialChunks;
  private final IndexWhen indexWhen;
  private final long indexPollMs;
  private final long indexTimeoutMs;

  public static Builder builder() {
    return new Builder();
  }

  /** A builder; every value starts at its documented default. */
  public static final class Builder {
    private boolean drop;
    private ShardKey shardKey;
    private Integer numInitialChunks;
    private IndexWhen indexWhen = IndexWhen.AFTER;
    private long indexPollMs = MongoSettings.DEFAULT_INDEX_POLL_MS;
    private long indexTimeoutMs = MongoSettings.DEFAULT_INDEX_TIMEOUT_MS;

    private Builder() {
    }

    /** Drop the geo collection before the load; default false. */
    public Builder drop(boolean drop) {
      this.drop = drop;
      return this;
    }

    /** Null (the default) leaves the collection unsharded. */
    public Builder shardKey(ShardKey shardKey) {
      this.shardKey = shardKey;
      return this;
    }

    /** Initial chunks of a hashed key on an empty collection (honoured before MongoDB 7.2); null is the server's default. */
    public Builder numInitialChunks(Integer numInitialChunks) {
      this.numInitialChunks = numInitialChunks;
      return this;
    }

    /** Default {@link IndexWhen#AFTER}. */
    public Builder indexWhen(IndexWhen indexWhen) {
      this.indexWhen = indexWhen;
      return this;
    }

    /** How often the index build is sampled per shard; default 250 ms, from 10 ms to 10 s. */
    public Builder indexPoll(long interval, TimeUnit unit) {
      this.indexPollMs = unit.toMillis(interval);
      return this;
    }

    /** The deadline of the 2dsphere index build (a request of its own); default 2 hours, at least 1 ms. */
    public Builder indexTimeout(long timeout, TimeUnit unit) {
      this.indexTimeoutMs = unit.toMillis(timeout);
      return this;
    }

    /**
     * @throws ConfigException listing every problem, one sentence each, naming the property
     */
    public MongoPreparationSettings build() throws ConfigException {
      List<String> problems = new ArrayList<>();
      MongoPreparationSettings settings = build(problems);
      if (!problems.isEmpty()) {
        throw new ConfigException(problems);
      }
      return settings;
    }

    /** The settings, each problem added to {@code problems} (with problems, for {@link MongoSettings} only). */
    MongoPreparationSettings build(List<String> problems) {
      if (indexTimeoutMs < 1) {
        problems.add("Property '" + INDEX_TIMEOUT_MS + "' must be at least 1 (milliseconds), but is " + indexTimeoutMs + ".");
      }
      if (numInitialChunks != null) {
        if (numInitialChunks < 1) {
          problems.add("Property '" + NUM_INITIAL_CHUNKS + "' must be at least 1, but is " + numInitialChunks + ".");
        } else if (shardKey == null || !shardKey.hashed()) {
          problems.add("Property '" + NUM_INITIAL_CHUNKS + "' applies only to a hashed shard key, but '" + SHARD_KEY + "' is "
              + (shardKey == null ? "not set" : "'" + shardKey + "'") + ".");
        } else if (!shardKey.hashedPrefix()) {
          problems.add("Property '" + NUM_INITIAL_CHUNKS + "' cannot be used with '" + SHARD_KEY + "' = '" + shardKey
              + "': its first field is ranged, and servers before 7.2 reject numInitialChunks for such a key (it needs "
              + "zones and presplitHashedZones); without it the collection starts as one chunk on the primary shard.");
        }
      }
      if (indexWhen == null) {
        problems.add("Property '" + INDEX_WHEN + "' must be before or after.");
      }
      if (indexPollMs < 10 || indexPollMs > 10_000) {
        problems.add("Property '" + INDEX_POLL_MS + "' must be from 10 to 10000 (milliseconds), but is " + indexPollMs + ".");
      }
      return new MongoPreparationSettings(this);
    }
  }

  private MongoPreparationSettings(Builder b) {
    this.drop = b.drop;
    this.shardKey = b.shardKey;
    this.numInitialChunks = b.numInitialChunks;
    this.indexWhen = b.indexWhen;
    this.indexPollMs = b.indexPollMs;
    this.indexTimeoutMs = b.indexTimeoutMs;
  }

  public boolean drop() {
    return drop;
  }

  /** Null: unsharded. */
  public ShardKey shardKey() {
    return shardKey;
  }

  /** Null: the server's default. */
  public Integer numInitialChunks() {
    return numInitialChunks;
  }

  public IndexWhen indexWhen() {
    return indexWhen;
  }

  public long indexPoll(TimeUnit unit) {
    return unit.convert(indexPollMs, TimeUnit.MILLISECONDS);
  }

  /** The 2dsphere index build's deadline ({@code mongodb.index.timeout.ms}). */
  public long indexTimeout(TimeUnit unit) {
    return unit.convert(indexTimeoutMs, TimeUnit.MILLISECONDS);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MongoPreparationSettings other && drop == other.drop && Objects.equals(shardKey, other.shardKey)
        && Objects.equals(numInitialChunks, other.numInitialChunks) && indexWhen == other.indexWhen
        && indexPollMs == other.indexPollMs && indexTimeoutMs == other.indexTimeoutMs;
  }

  @Override
  public int hashCode() {
    return Objects.hash(drop, shardKey, numInitialChunks, indexWhen, indexPollMs, indexTimeoutMs);
  }

  @Override
  public String toString() {
    return "MongoPreparationSettings{drop=" + drop + ", shardKey=" + shardKey + ", numInitialChunks=" + numInitialChunks
        + ", indexWhen=" + indexWhen + ", indexPollMs=" + indexPollMs + ", indexTimeoutMs=" + indexTimeoutMs + "}";
  }
}
