package org.geoshard.mongodb;

import com.mongodb.client.MongoClient;
import java.util.ArrayList;
import java.util.List;
import org.geoshard.lastlocation.contract.HistorySplit;

/**
 * The location stream's collections as the run's checks and {@code bin/ycsb preflight} read them (nothing
 * is changed): History, which {@code ll.history.split} may spread over one collection per month or day
 * (all of them are counted), and LastKnownLocation, on the cluster of {@code mongodb.ll.lkl.url} when
 * given.
 */
final class LastLocationCollections {
  /** Where a collection lives: a client, its database and the URL to name (password masked). */
  record Cluster(MongoClient client, String database, String maskedUrl) {
  }

  private final MongoLastLocationSettings ll;
  private final Cluster history;
  private final Cluster lkl;
  private final boolean lklElsewhere;

  LastLocationCollections(MongoLastLocationSettings ll, Cluster history, Cluster lkl) {
    this.ll = ll;
    this.history = history;
    this.lkl = lkl;
    this.lklElsewhere = !lkl.maskedUrl().equals(history.maskedUrl());
  }

  /** The History collections the database holds (none when nothing was loaded or appended yet). */
  List<String> histories() {
    List<String> names = new ArrayList<>();
    for (String name : history.client().getDatabase(history.database()).listCollectionNames()) {
      if (ll.isHistory(name)) {
        names.add(name);
      }
    }
    names.sort(null);
    return names;
  }

  /** Documents in every History collection ({@code $collStats} counts, per shard where sharded). */
  long historyDocuments(List<String> names) {
    long sum = 0;
    for (String name : names) {
      sum += total(TopologyReader.documentsPerShard(history.client(), history.database(), name));
    }
    return sum;
  }

  boolean historyEmpty() {
    for (String name : histories()) {
      if (history.client().getDatabase(history.database()).getCollection(name).find().limit(1).first() != null) {
        return false;
      }
    }
    return true;
  }

  long lklDocuments() {
    return total(TopologyReader.documentsPerShard(lkl.client(), lkl.database(), ll.lkl()));
  }

  boolean lklEmpty() {
    return lkl.client().getDatabase(lkl.database()).getCollection(ll.lkl()).find().limit(1).first() == null;
  }

  /** History's name in preflight's lines: the collection, or the pattern of a split's and how many there are. */
  String historyName(List<String> names) {
    if (ll.split() == HistorySplit.NONE) {
      return history.database() + "." + ll.history();
    }
    return history.database() + "." + ll.history() + "_* (ll.history.split=" + splitName() + ": " + names.size() + " collection" + (names.size() == 1 ? "" : "s") + ")";
  }

  /** LastKnownLocation's name in preflight's lines, with its cluster's URL when it has one of its own. */
  String lklName() {
    return lkl.database() + "." + ll.lkl() + (lklElsewhere ? " at " + lkl.maskedUrl() : "");
  }

  /** What the run's refusal of an empty History names. */
  String historyPlace() {
    String where = " at " + history.maskedUrl();
    return ll.split() == HistorySplit.NONE ? "Collection " + history.database() + "." + ll.history() + where
        : "History " + history.database() + "." + ll.history() + "_* (ll.history.split=" + splitName() + ")" + where;
  }

  /** What the run's refusal of an empty LastKnownLocation names. */
  String lklPlace() {
    return "Collection " + lkl.database() + "." + ll.lkl() + " at " + lkl.maskedUrl();
  }

  private String splitName() {
    return ll.split().name().toLowerCase(java.util.Locale.ROOT);
  }

  private static long total(java.util.Map<String, Long> perShard) {
    return perShard.values().stream().mapToLong(Long::longValue).sum();
  }
}
