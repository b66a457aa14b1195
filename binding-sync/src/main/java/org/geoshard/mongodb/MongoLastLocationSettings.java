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

  /**
   * One sentence when the LastKnownLocation key cannot serve the conditional upsert on this cluster, else
   * null. The upsert's filter ({_id: user, Timestamp: {$lt: t}}) gives mongos equality on _id only: before
   * FCV 7.0 an upsert must carry the whole shard key, so a key beyond _id (e.g. _id:1,CellId:1) fails every
   * upsert there; from 7.0 it is accepted, with the risk {@link #lklKeyRisk} says ({@link VersionRules}).
   */
  public String lklKeyProblem(ServerFacts lklCluster) {
    if (!keyBeyondIdOn(lklCluster) || !lklCluster.rules().upsertNeedsWholeShardKey()) {
      return null;
    }
    return "Property '" + LKL_SHARD_KEY + "' is '" + lklKey + "', but the Last-Known-Location cluster runs "
        + lklCluster.describe() + ": before feature compatibility version 7.0 an upsert must name the whole shard key"
        + " (SERVER-1689), and the upsert names only _id, so every LKL_UPSERT would fail. Use _id:hashed or _id:1, or"
        + " a 7.0+ cluster (SERVER-75194).";
  }

  /**
   * One sentence when the LastKnownLocation key goes beyond _id on a cluster that accepts the upsert
   * (FCV 7.0+), else null. Equality on _id, the key's first field, lies within one chunk, so mongos targets
   * the upsert at one shard and sends it there as it is: "It is always valid to forward any update or upsert
   * to a single shard" ({@code CollectionRoutingInfoTargeter::targetUpdate}), ahead of the write without
   * shard key. There, an upsert whose $set moves the user to another cell changes a shard key value, which
   * needs equality on the whole shard key in the filter (manual, "Change a Document's Shard Key Value"; error
   * 31025 as SERVER-75194 quotes it), and SERVER-106069 (8.0.5) reports exactly such an upsert failing; its fix
   * is not known. How the collection's chunks lie over the shards does not change the targeting, so no split
   * avoids it. A warning, not a refusal: the matrix's LastLocationContainerTest on 7.0 and 8.0 is the first
   * run of it against a real server.
   */
  public String lklKeyRisk(ServerFacts lklCluster) {
    if (!keyBeyondIdOn(lklCluster) || lklCluster.rules().upsertNeedsWholeShardKey()) {
      return null;
    }
    return "Property '" + LKL_SHARD_KEY + "' is '" + lklKey + "' on " + lklCluster.describe() + ": the upsert names"
        + " only _id, which picks one chunk of this key, so mongos sends each LKL_UPSERT to one shard without the whole"
        + " key, where a user's move to another cell changes a shard key value without it: the upsert SERVER-106069"
        + " reports failing on 8.0.5 (fix not known); use _id:hashed or _id:1 to be safe.";
  }

  /** A LastKnownLocation shard key with fields after _id, on a sharded cluster: what the upsert names only part of. */
  private boolean keyBeyondIdOn(ServerFacts lklCluster) {
    return lklKey != null && lklKey.parts().size() > 1 && lklCluster.sharded();
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
