package org.geoshard.mongodb;

import static org.geoshard.mongodb.MongoSettings.BATCH_SIZE;
import static org.geoshard.mongodb.MongoSettings.MAX_BATCH_SIZE;

import com.mongodb.WriteConcern;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.geoshard.harness.config.ConfigException;

/**
 * How the bindings write, immutable: the write concern, the batches of the geo load and of YCSB's
 * inserts, and whether YCSB's inserts are upserts. Equal when every value is.
 */
public final class MongoWriteSettings {
  private final WriteConcern writeConcern;
  private final int geoBatchSize;
  private final int ycsbBatchSize;
  private final boolean upsert;

  public static Builder builder() {
    return new Builder();
  }

  /** A builder; every value starts at its documented default. */
  public static final class Builder {
    private WriteConcern writeConcern;
    private Integer batchSize;
    private boolean upsert;

    private Builder() {
    }

    /** Null (the default) takes the URL's write concern, or the server's. */
    public Builder writeConcern(WriteConcern writeConcern) {
      this.writeConcern = writeConcern;
      return this;
    }

    /** Documents per insertMany; null (the default) is 100 for the geo load and 1 for YCSB's insert. */
    public Builder batchSize(Integer batchSize) {
      this.batchSize = batchSize;
      return this;
    }

    /** YCSB's inserts as upserts (replace by {@code _id}); default false. */
    public Builder upsert(boolean upsert) {
      this.upsert = upsert;
      return this;
    }

    /**
     * @throws ConfigException listing every problem, one sentence each, naming the property
     */
    public MongoWriteSettings build() throws ConfigException {
      List<String> problems = new ArrayList<>();
      MongoWriteSettings settings = build(problems);
      if (!problems.isEmpty()) {
        throw new ConfigException(problems);
      }
      return settings;
    }

    /** The settings, each problem added to {@code problems} (with problems, for {@link MongoSettings} only). */
    MongoWriteSettings build(List<String> problems) {
      if (batchSize != null && (batchSize < 1 || batchSize > MAX_BATCH_SIZE)) {
        problems.add("Property '" + BATCH_SIZE + "' must be from 1 to " + MAX_BATCH_SIZE + ", but is " + batchSize + ".");
      }
      return new MongoWriteSettings(this);
    }
  }

  private MongoWriteSettings(Builder b) {
    this.writeConcern = b.writeConcern;
    this.geoBatchSize = b.batchSize == null ? MongoSettings.DEFAULT_GEO_BATCH_SIZE : b.batchSize;
    this.ycsbBatchSize = b.batchSize == null ? MongoSettings.DEFAULT_YCSB_BATCH_SIZE : b.batchSize;
    this.upsert = b.upsert;
  }

  /** Null: the URL's, or the server's default. */
  public WriteConcern writeConcern() {
    return writeConcern;
  }

  /** Restaurants per insertMany of the geo load. */
  public int geoBatchSize() {
    return geoBatchSize;
  }

  /** Records per insertMany of YCSB's insert. */
  public int ycsbBatchSize() {
    return ycsbBatchSize;
  }

  public boolean upsert() {
    return upsert;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MongoWriteSettings other && Objects.equals(writeConcern, other.writeConcern)
        && geoBatchSize == other.geoBatchSize && ycsbBatchSize == other.ycsbBatchSize && upsert == other.upsert;
  }

  @Override
  public int hashCode() {
    return Objects.hash(writeConcern, geoBatchSize, ycsbBatchSize, upsert);
  }

  @Override
  public String toString() {
    return "MongoWriteSettings{writeConcern=" + (writeConcern == null ? "from URL" : MongoSettings.describe(writeConcern))
        + ", geoBatchSize=" + geoBatchSize + ", ycsbBatchSize=" + ycsbBatchSize + ", upsert=" + upsert + "}";
  }
}
