package org.geoshard.mongodb;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.config.PropertyReader;
import org.geoshard.lastlocation.contract.HistorySplit;
import org.geoshard.lastlocation.contract.LocationStream;

/**
 * The MongoDB side of the last-location workload: collection names and shard keys
 * ({@code mongodb.ll.*}), with the workload's History batch size and time split.
 *
 * @param historyKey how History is sharded (e.g. {@code UserId:1,Timestamp:1}), or null for unsharded
 * @param lklKey how LastKnownLocation is sharded (e.g. {@code _id:hashed}), or null for unsharded
 * @param lklUrl the cluster LastKnownLocation lives on ({@code mongodb.ll.lkl.url}, the pilot's topology:
 *     History on one cluster, LKL on another), or null for {@code mongodb.url}'s
 * @param nearQueries the readers ask LKL_NEAR: only then does LastKnownLocation get its 2dsphere index
 * @param keepsLkl events are upserted into LastKnownLocation (false: {@code ll.write.mode=insertonly})
 */
public record MongoLastLocationSettings(String history, String lkl, ShardKey historyKey, ShardKey lklKey, int batchSize,
                                 HistorySplit split, String lklUrl, boolean nearQueries, boolean keepsLkl) {

  static final String HISTORY = "mongodb.ll.history";
  static final String LKL = "mongodb.ll.lkl";
  static final String HISTORY_SHARD_KEY = "mongodb.ll.history.shardkey";
  static final String LKL_SHARD_KEY = "mongodb.ll.lkl.shardkey";
  static final String LKL_URL = "mongodb.ll.lkl.url";
  static final List<String> NAMES = List.of(HISTORY, LKL, HISTORY_SHARD_KEY, LKL_SHARD_KEY, LKL_URL);

  public static MongoLastLocationSettings fromProperties(Properties properties) throws ConfigException {
    PropertyReader in = new PropertyReader(properties);
    String history = in.string(HISTORY, "history");
    String lkl = in.string(LKL, "lastknownlocation");
    List<String> problems = new ArrayList<>();
    String historyKeyText = in.raw(HISTORY_SHARD_KEY);
    String lklKeyText = in.raw(LKL_SHARD_KEY);
    ShardKey historyKey = historyKeyText == null ? null : ShardKey.parse(HISTORY_SHARD_KEY, historyKeyText, problems);
    ShardKey lklKey = lklKeyText == null ? null : ShardKey.parse(LKL_SHARD_KEY, lklKeyText, problems);
    if (lklKey != null && !lklKey.parts().get(0).field().equals("_id")) {
      // The conditional upsert ({_id: user, T: {$lt: t}}, upsert) finds a stale event's document only by _id.
      problems.add("Property '" + LKL_SHARD_KEY + "' is '" + lklKey + "', but the Last-Known-Location upsert is only "
          + "correct when the key is _id:hashed or starts with _id (with another key a stale event inserts a second "
          + "document for its user from MongoDB 7.0, and the upsert fails before 7.0).");
    }
    for (String name : List.of(history, lkl)) {
      if (!name.matches("[A-Za-z_][A-Za-z0-9_.-]{0,100}")) {
        problems.add("Collection name '" + name + "' (" + HISTORY + ", " + LKL + ") must be letters, digits, '_', '.' or '-'.");
      }
    }
    String lklUrl = in.raw(LKL_URL);
    if (lklUrl != null && !lklUrl.startsWith("mongodb://") && !lklUrl.startsWith("mongodb+srv://")) {
      problems.add("Property '" + LKL_URL + "' must be a mongodb:// or mongodb+srv:// connection string (the cluster of"
          + " LastKnownLocation), but is '" + org.geoshard.harness.api.Secrets.maskText(lklUrl) + "'.");
    }
    problems.forEach(in::problem);
    LocationStream stream;
    try {
      stream = LocationStream.fromProperties(properties);
    } catch (ConfigException e) {
      e.problems().forEach(in::problem);
      stream = null;
    }
    in.throwIfProblems();
    return new MongoLastLocationSettings(history, lkl, historyKey, lklKey, stream.historyBatchSize(),
        stream.historySplit(), lklUrl, stream.nearQueries(), stream.keepsLastKnownLocation());
  }

  /** The LastKnownLocation shard key's fields after {@code _id} (empty for _id:1, _id:hashed or none). */
  public List<String> lklKeyBeyondId() {
    return lklKey == null ? List.of() : lklKey.parts().stream().skip(1).map(ShardKey.Part::field).toList();
  }

  /**
   * One sentence when the LastKnownLocation key cannot be written on this cluster, else null. With a key
   * beyond _id a user's move to another cell changes a shard key value, which MongoDB accepts only as a
   * retryable write or in a transaction ({@link WholeKeyUpsert}): a connection string with
   * {@code retryWrites=false} would fail every move.
   *
   * @param retryWrites the LastKnownLocation cluster's {@code retryWrites} option, null when not given (on)
   */
  public String lklKeyProblem(ServerFacts lklCluster, Boolean retryWrites) {
    if (lklKeyBeyondId().isEmpty() || !lklCluster.sharded() || !Boolean.FALSE.equals(retryWrites)) {
      return null;
    }
    return "Property '" + LKL_SHARD_KEY + "' is '" + lklKey + "', so a user's move to another cell changes a shard key"
        + " value, which MongoDB accepts only in a retryable write or a transaction, but the connection string of the"
        + " Last-Known-Location cluster (" + (lklUrl != null ? LKL_URL : "mongodb.url") + ") sets retryWrites=false;"
        + " remove it, or use _id:hashed or _id:1.";
  }

  /** What the upsert does under a key beyond _id on a sharded cluster (preflight's line), else null. */
  public String lklKeyNote(ServerFacts lklCluster) {
    if (lklKeyBeyondId().isEmpty() || !lklCluster.sharded()) {
      return null;
    }
    return "key " + lklKey + ": every LKL_UPSERT names the whole key (the event's " + String.join(", ", lklKeyBeyondId())
        + "); when the user has moved, the stored document is read and updated by its own key values, a retryable"
        + " write that changes the key (1 request while the user stays, 3 for a first event or a move, 2 for a stale"
        + " one; SERVER-1689 and SERVER-106069 avoided)";
  }

  /** The History collection of an event's timestamp: {@code history} or {@code history_<split>}. */
  public String historyFor(long timestampMs) {
    return split == HistorySplit.NONE ? history : history + "_" + split.suffix(timestampMs);
  }

  /**
   * Whether a collection of the database is one of History's: {@code history} unsplit, else
   * {@code history_<yyyy_MM>} or {@code history_<yyyy_MM_dd>} as {@code ll.history.split} names them.
   */
  public boolean isHistory(String collection) {
    return switch (split) {
      case NONE -> collection.equals(history);
      case MONTH -> collection.startsWith(history + "_") && collection.substring(history.length() + 1).matches("\\d{4}_\\d{2}");
      case DAY -> collection.startsWith(history + "_")
          && collection.substring(history.length() + 1).matches("\\d{4}_\\d{2}_\\d{2}");
    };
  }

  /** Every History collection that [fromMs, toMs] touches. */
  public List<String> historiesBetween(long fromMs, long toMs) {
    if (split == HistorySplit.NONE) {
      return List.of(history);
    }
    return split.suffixes(fromMs, toMs).stream().map(suffix -> history + "_" + suffix).toList();
  }
}
