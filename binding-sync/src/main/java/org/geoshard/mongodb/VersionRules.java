package org.geoshard.mongodb;

import java.util.ArrayList;
import java.util.List;

/**
 * What the bindings do differently by server version, in one place: the rows of the version table in
 * {@code binding-sync/README.md}, each with its source in the server's code or tickets. Router
 * behaviour follows the binary's version (mongos plans the query); what the cluster's data and
 * protocols allow follows the feature compatibility version ({@link ServerFacts#featureVersion()}).
 *
 * @param facts the server behind {@code mongodb.url}
 */
public record VersionRules(ServerFacts facts) {

  /** How a router plans a near query that also has a predicate on the shard key. */
  public enum NearTargeting {
    /** The $nearSphere is taken out of the top-level AND and the rest (the cell covering) targets shards. */
    TARGETED,
    /** Any query with a GEO_NEAR gets all-values bounds: sent to every shard. */
    EVERY_SHARD,
    /** Changed within the release's patch versions; the run's explain sampling shows what it does. */
    NOT_PINNED
  }

  /** The topic of the near-targeting row. */
  public static final String NEAR_TOPIC = "near queries with the cell covering";

  /**
   * One row of the table as it applies to this server: topic, what applies, its source, and whether
   * what applies works against the scenario (preflight warns of it).
   */
  public record Row(String topic, String applies, String source, boolean caution) {
    Row(String topic, String applies, String source) {
      this(topic, applies, source, false);
    }
  }

  /**
   * 4.4 and early 5.0 ({@code chunk_manager.cpp}, "ignore GEO_NEAR queries in planning"): every shard.
   * The GEO_NEAR child of a top-level AND removed and the rest planned: in master after the 6.0 branch
   * point (mongodb/mongo ce3443291), in a late v5.0-branch file, and in 7.0 ({@code shard_key_pattern_query_util.cpp},
   * 009489e7). Which 5.0.x and 6.0.x patch release first shipped it is not proven, so those are not pinned:
   * preflight and the run's start ask the router itself ({@link RouterTargeting}).
   */
  public NearTargeting nearTargeting() {
    ServerVersion v = facts.version();
    if (v.atLeast(7, 0)) {
      return NearTargeting.TARGETED;
    }
    return v.atLeast(5, 0) ? NearTargeting.NOT_PINNED : NearTargeting.EVERY_SHARD;
  }

  /**
   * Before FCV 7.0 an upsert must carry equality on the whole shard key (SERVER-1689, "could not extract
   * exact shard key"); from 7.0 a single-document upsert without it is accepted (PM-1632, SERVER-75194):
   * through the two-phase write without shard key where its query reaches several shards, but sent as it is
   * where the query reaches one ({@code CollectionRoutingInfoTargeter::targetUpdate}), which for a key that
   * starts with {@code _id} is every upsert naming {@code _id}: the case SERVER-106069 reports failing on 8.0.5.
   * The binding's upsert names the whole key under such a key on every version ({@link WholeKeyUpsert}).
   */
  public boolean upsertNeedsWholeShardKey() {
    return !facts.featureVersion().atLeast(7, 0);
  }

  /**
   * {@code moveRange} from 6.0 (DOCS-15363); before it, {@code moveChunk} with a chunk's exact bounds,
   * which every version to 8.0 still runs: so a 6.0+ binary still at FCV 5.0 (an upgrade not finished)
   * moves with it too, rather than count on a new command before the cluster has taken the version.
   */
  public boolean hasMoveRange() {
    return facts.featureVersion().atLeast(6, 0);
  }

  /**
   * From 6.0.3 the balancer evens out data size per shard (3 chunk sizes of difference at least) and
   * auto-splitting stops (SERVER-67813, {@code balancer_policy.cpp}); before, it evens out chunk counts
   * and the auto-splitter cuts chunks as inserts grow them.
   */
  public boolean balancesByDataSize() {
    return facts.version().compareTo(new ServerVersion(6, 0, 3)) >= 0;
  }

  /** {@code numInitialChunks} is honoured for a hashed key before FCV 7.2, ignored (deprecated) from it. */
  public boolean honoursNumInitialChunks() {
    return !facts.featureVersion().atLeast(7, 2);
  }

  /**
   * From 4.4 every index build runs on an {@code IndexBuildsCoordinatorMongod} thread, which carries the
   * {@code msg} and {@code progress}; before, the client's {@code createIndexes} did.
   */
  public boolean indexBuildOnItsOwnThread() {
    return facts.version().atLeast(4, 4);
  }

  /** What {@link #nearTargeting()} means for the cell covering, in one sentence for a person. */
  public String nearTargetingSaid() {
    return switch (nearTargeting()) {
      case TARGETED -> "targeted: mongos plans on the covering, so a query goes only to the shards owning its cells";
      case EVERY_SHARD -> "every shard: mongos " + facts.version() + " gives any near query all-values bounds, so the"
          + " covering costs work and targets nothing";
      case NOT_PINNED -> "not pinned for " + facts.version() + ": early 5.0 sends near queries to every shard, late 5.0"
          + " and post-6.0 code plans on the covering, and the first 5.0.x and 6.0.x releases with it are not known;"
          + " preflight's router targeting line and run.json queryTargeting show what this router does";
    };
  }

  /** The rows that matter to a scenario, for preflight and {@code run.json}. */
  public List<Row> rows(boolean cellKey, boolean lastLocation) {
    List<Row> rows = new ArrayList<>();
    if (facts.sharded() && cellKey) {
      rows.add(new Row(NEAR_TOPIC, nearTargetingSaid(),
          "src/mongo/s/chunk_manager.cpp (4.4: \"ignore GEO_NEAR queries in planning\"; master after the 6.0 branch:"
              + " mongodb/mongo ce3443291); shard_key_pattern_query_util.cpp (7.0: 009489e7); 5.0.x/6.0.x not pinned",
          nearTargeting() != NearTargeting.TARGETED));
    }
    if (facts.sharded()) {
      rows.add(new Row("moving a range", hasMoveRange() ? "moveRange with min and max of each chunk"
          : "moveChunk with the bounds of each chunk", "DOCS-15363 (moveRange new in 6.0)"));
      rows.add(new Row("balancer", balancesByDataSize() ? "balances data size per shard; no auto-split"
          : "balances chunk counts; the auto-splitter cuts growing chunks", "SERVER-67813 (6.0.3)"));
      rows.add(new Row("hashed presplit", honoursNumInitialChunks() ? "numInitialChunks honoured"
          : "one chunk per shard; numInitialChunks ignored", "FCV 7.2 release notes"));
    }
    if (facts.sharded() && lastLocation) {
      rows.add(new Row("Last-Known-Location upsert", (upsertNeedsWholeShardKey()
          ? "an upsert must name the whole shard key"
          : "an upsert without the whole key is accepted, but equality on _id sends it to one shard as it is, where a"
              + " shard key change without the whole key fails (SERVER-106069)")
          + "; under a key beyond _id the binding names the whole key in every write (a move: read, then update by the"
          + " stored key values, a retryable write)",
          "SERVER-1689; SERVER-75194 (7.0); collection_routing_info_targeter.cpp targetUpdate; SERVER-106069; manual,"
              + " Change a Document's Shard Key Value"));
    }
    rows.add(new Row("index build progress", indexBuildOnItsOwnThread()
        ? "from the IndexBuildsCoordinatorMongod entry of $currentOp" : "from the createIndexes entry of $currentOp",
        "index_builds_coordinator_mongod.cpp (4.4)"));
    return rows;
  }
}
