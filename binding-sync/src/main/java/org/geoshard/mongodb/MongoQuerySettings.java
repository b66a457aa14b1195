package org.geoshard.mongodb;

import com.mongodb.ReadPreference;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.mongodb.MongoSettings.MaxDistance;

/**
 * How the bindings read, immutable: the read preference (applied to the database, as the write concern,
 * so not a client of its own) and what the near query sends as {@code $maxDistance}. Equal when every
 * value is.
 */
public final class MongoQuerySettings {
  private final ReadPreference readPreference;
  private final MaxDistance maxDistance;

  public static Builder builder() {
    return new Builder();
  }

  /** A builder; every value starts at its documented default. */
  public static final class Builder {
    private ReadPreference readPreference;
    private MaxDistance maxDistance = MaxDistance.DRAWN;

    private Builder() {
    }

    /** Null (the default) takes the URL's read preference, or primary. */
    public Builder readPreference(ReadPreference readPreference) {
      this.readPreference = readPreference;
      return this;
    }

    /** What {@code $maxDistance} carries; default {@link MaxDistance#DRAWN}, as the study sent it. */
    public Builder maxDistance(MaxDistance maxDistance) {
      this.maxDistance = maxDistance;
      return this;
    }

    /**
     * @throws ConfigException listing every problem, one sentence each, naming the property
     */
    public MongoQuerySettings build() throws ConfigException {
      List<String> problems = new ArrayList<>();
      MongoQuerySettings settings = build(problems);
      if (!problems.isEmpty()) {
        throw new ConfigException(problems);
      }
      return settings;
    }

    /** The settings, each problem added to {@code problems} (with problems, for {@link MongoSettings} only). */
    MongoQuerySettings build(List<String> problems) {
      if (maxDistance == null) {
        problems.add("Property '" + MongoSettings.MAX_DISTANCE + "' must be drawn or scaled.");
      }
      return new MongoQuerySettings(this);
    }
  }

  private MongoQuerySettings(Builder b) {
    this.readPreference = b.readPreference;
    this.maxDistance = b.maxDistance;
  }

  /** Null: the URL's, or primary. */
  public ReadPreference readPreference() {
    return readPreference;
  }

  /** What the near query sends as {@code $maxDistance}. */
  public MaxDistance maxDistance() {
    return maxDistance;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MongoQuerySettings other && Objects.equals(readPreference, other.readPreference)
        && maxDistance == other.maxDistance;
  }

  @Override
  public int hashCode() {
    return Objects.hash(readPreference, maxDistance);
  }

  @Override
  public String toString() {
    return "MongoQuerySettings{readPreference=" + (readPreference == null ? "from URL" : readPreference.getName())
        + ", maxDistance=" + maxDistance + "}";
  }
}
