package org.geoshard.mongodb;

import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.IndexOptions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bson.Document;
import org.geoshard.harness.api.Preparable;
import org.geoshard.lastlocation.contract.HistorySplit;
import site.ycsb.DBException;

/**
 * Prepares the last-location collections: History with an index on {@code {UserId: 1, Timestamp: 1}}
 * (and sharded on {@code mongodb.ll.history.shardkey} when given), LastKnownLocation (on the cluster of
 * {@code mongodb.ll.lkl.url} when given) sharded on {@code mongodb.ll.lkl.shardkey}, with a 2dsphere
 * index only when the readers ask near queries ({@code ll.read.proportion.near > 0}): every upsert pays
 * for the index, and the pilot had none. What was built is recorded with each step. A time-split
 * History's collections are prepared for the months or days the clock will reach: the load's and the
 * first {@value #SPLITS_AHEAD} after the clock start. A split collection the run reaches later is
 * created by its first insert with neither the (UserId, Timestamp) index nor sharding: range queries
 * on it scan the collection. Prepare far enough ahead for long runs (the clock runs at real speed, so
 * {@value #SPLITS_AHEAD} months, or days, ahead is more than any run).
 */
final class LastLocationPreparation {
  static final int SPLITS_AHEAD = 3;

  private final ClusterPreparation cluster;
  private final MongoDatabase database;
  private final ClusterPreparation lklCluster;
  private final MongoDatabase lklDatabase;
  private final String lklWhere;
  private final MongoLastLocationSettings settings;
  private final long clockStartMs;
  private final boolean drop;

  LastLocationPreparation(ClusterPreparation cluster, MongoDatabase database, MongoLastLocationSettings settings,
      long clockStartMs, boolean drop) {
    this(cluster, database, cluster, database, null, settings, clockStartMs, drop);
  }

  /**
   * @param lklCluster where LastKnownLocation lives (the same as {@code cluster} without {@code mongodb.ll.lkl.url})
   * @param lklWhere the masked URL of LastKnownLocation's cluster to record, or null for {@code mongodb.url}'s
   */
  LastLocationPreparation(ClusterPreparation cluster, MongoDatabase database, ClusterPreparation lklCluster,
      MongoDatabase lklDatabase, String lklWhere, MongoLastLocationSettings settings, long clockStartMs, boolean drop) {
    this.cluster = cluster;
    this.database = database;
    this.lklCluster = lklCluster;
    this.lklDatabase = lklDatabase;
    this.lklWhere = lklWhere;
    this.settings = settings;
    this.clockStartMs = clockStartMs;
    this.drop = drop;
  }

  void prepare(Preparable.Stage stage, Preparable.Steps steps) throws DBException {
    if (stage != Preparable.Stage.BEFORE_LOAD) {
      return;
    }
    List<String> histories = historyCollections();
    if (drop) {
      steps.step("drop last-location collections", () -> {
        Map<String, Object> dropped = new LinkedHashMap<>();
        for (String name : database.listCollectionNames()) {
          if ((name.equals(settings.lkl()) && lklWhere == null) || name.equals(settings.history()) || isSplitOfHistory(name)) {
            dropped.put(name, ClusterPreparation.dropCounted(database, name));
          }
        }
        if (lklWhere != null
            && lklDatabase.listCollectionNames().into(new ArrayList<>()).contains(settings.lkl())) {
          dropped.put(settings.lkl() + " (" + lklWhere + ")", ClusterPreparation.dropCounted(lklDatabase, settings.lkl()));
        }
        return Map.of("dropped", dropped);
      });
    }
    for (String history : histories) {
      steps.step("History " + history, () -> {
        Map<String, Object> details = new LinkedHashMap<>();
        database.getCollection(history).createIndex(new Document(LastLocationDocuments.USER, 1)
            .append(LastLocationDocuments.TIMESTAMP, 1), new IndexOptions().name("user_time"));
        details.put("index", "{UserId: 1, Timestamp: 1}");
        if (settings.historyKey() != null) {
          details.put("sharding", cluster.shard(history, settings.historyKey(), MongoLastLocationSettings.HISTORY_SHARD_KEY));
        }
        return details;
      });
    }
    steps.step("LastKnownLocation " + settings.lkl(), () -> {
      Map<String, Object> details = new LinkedHashMap<>();
      if (lklWhere != null) {
        details.put("url", lklWhere);
      }
      if (settings.nearQueries()) {
        lklDatabase.getCollection(settings.lkl()).createIndex(new Document(LastLocationDocuments.LOCATION, "2dsphere"));
        details.put("index", "{location: 2dsphere}");
      } else {
        // Created all the same, so that reads find the collection and sharding has something to shard.
        createIfMissing(lklDatabase, settings.lkl());
        boolean kept = false;
        for (Document index : lklDatabase.getCollection(settings.lkl()).listIndexes()) {
          kept |= index.get("key", Document.class).containsValue("2dsphere");
        }
        // An index from an earlier preparation stays (preparation never drops what it did not create now).
        details.put("index", kept ? "none built (no LKL_NEAR in the mix), but an earlier 2dsphere index is kept: every"
            + " upsert pays for it; load with mongodb.drop=true to go without" : "none: no LKL_NEAR in the mix"
            + " (ll.read.proportion.near=0)");
      }
      if (!settings.keepsLkl()) {
        details.put("writes", "none: ll.write.mode=insertonly");
      }
      if (settings.lklKey() != null) {
        details.put("sharding", lklCluster.shard(settings.lkl(), settings.lklKey(), MongoLastLocationSettings.LKL_SHARD_KEY));
      }
      return details;
    });
  }

  /** Creates a collection unless it exists (preparation runs twice as it runs once). */
  private static void createIfMissing(MongoDatabase database, String name) {
    if (database.listCollectionNames().into(new ArrayList<>()).contains(name)) {
      return;
    }
    try {
      database.createCollection(name);
    } catch (com.mongodb.MongoCommandException e) {
      if (e.getErrorCode() != 48) {  // NamespaceExists: another client created it meanwhile
        throw e;
      }
    }
  }

  /**
   * True for a collection this workload's time split names ({@code <history>_2026_02} by month,
   * {@code <history>_2026_02_03} by day): only those are dropped, never another collection that merely
   * starts with the same name.
   */
  boolean isSplitOfHistory(String name) {
    String dates = switch (settings.split()) {
      case NONE -> null;
      case MONTH -> "\\d{4}_\\d{2}";
      case DAY -> "\\d{4}_\\d{2}_\\d{2}";
    };
    return dates != null && name.matches(java.util.regex.Pattern.quote(settings.history()) + "_" + dates);
  }

  /** The History collections of the load's events and the first splits of the run's clock. */
  List<String> historyCollections() {
    if (settings.split() == HistorySplit.NONE) {
      return List.of(settings.history());
    }
    List<String> names = new ArrayList<>();
    long at = clockStartMs - 86_400_000L;  // the load's events lie just before the clock start
    for (int i = 0; i <= SPLITS_AHEAD; i++) {
      String name = settings.historyFor(at);
      if (!names.contains(name)) {
        names.add(name);
      }
      at = settings.split().bounds(at)[1];
    }
    return names;
  }
}
