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
 * (and sharded on {@code mongodb.ll.history.shardkey} when given), LastKnownLocation with a 2dsphere
 * index for the near query (and sharded on {@code mongodb.ll.lkl.shardkey}). A time-split History's
 * collections are prepared for the months or days the clock will reach: the load's and the first
 * {@value #SPLITS_AHEAD} after the clock start (a split collection the run reaches later is created
 * by its first insert, indexed but not sharded).
 */
final class LastLocationPreparation {
  static final int SPLITS_AHEAD = 3;

  private final ClusterPreparation cluster;
  private final MongoDatabase database;
  private final MongoLastLocationSettings settings;
  private final long clockStartMs;
  private final boolean drop;

  LastLocationPreparation(ClusterPreparation cluster, MongoDatabase database, MongoLastLocationSettings settings,
      long clockStartMs, boolean drop) {
    this.cluster = cluster;
    this.database = database;
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
        List<String> dropped = new ArrayList<>();
        for (String name : database.listCollectionNames()) {
          if (name.equals(settings.lkl()) || name.equals(settings.history()) || isSplitOfHistory(name)) {
            database.getCollection(name).drop();
            dropped.add(name);
          }
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
      database.getCollection(settings.lkl()).createIndex(new Document(LastLocationDocuments.LOCATION, "2dsphere"));
      details.put("index", "{location: 2dsphere}");
      if (settings.lklKey() != null) {
        details.put("sharding", cluster.shard(settings.lkl(), settings.lklKey(), MongoLastLocationSettings.LKL_SHARD_KEY));
      }
      return details;
    });
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
