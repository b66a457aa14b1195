package org.geoshard.mongodb;

import com.mongodb.MongoException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoDatabase;
import java.util.List;
import java.util.Properties;
import java.util.SortedSet;
import java.util.TreeSet;
import org.bson.Document;
import org.geoshard.geo.contract.GeoQuery;
import org.geoshard.geo.contract.RestaurantCells;
import org.geoshard.harness.api.Preflight.Check;
import org.geoshard.harness.api.Preflight.Verdict;
import org.geoshard.harness.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the router where a near query goes instead of guessing it from its version: one {@code explain}
 * of the first near query the run sends (the workload's generator, the run's seed), its shards set
 * against the shards that own the query's chunks ({@code config.chunks}): for the cell key those owning
 * the covering's cells, for any other key every shard holding chunks (a hashed key gives a near query
 * nothing to target by, so the broadcast is what is expected). {@link VersionRules} stays the fallback
 * where the router refuses the explain. Nothing is changed on the server.
 */
final class RouterTargeting {
  private static final Logger LOG = LoggerFactory.getLogger(RouterTargeting.class);
  static final String NAME = "router targeting";
  private static final String ANSWERED = "explain of a near query reached ";

  private RouterTargeting() {
  }

  /** The check line, or null where there is nothing to ask (not a sharded cluster). */
  static Check check(MongoClient client, ServerFacts facts, MongoSettings settings, CellKeyPlan cellKey,
      Properties properties) {
    if (!facts.sharded()) {
      return null;
    }
    try {
      return asked(client, facts, settings, cellKey, properties);
    } catch (MongoException e) {
      return Check.warn(NAME, "unreadable: " + e.getMessage());
    }
  }

  /** Logs the line before a run's start: information when ok, a warning otherwise. */
  static void log(Check check) {
    if (check == null) {
      return;
    }
    if (check.status() == Verdict.OK) {
      LOG.info("{}: {}", check.name(), check.detail());
    } else {
      LOG.warn("{}: {}", check.name(), check.detail());
    }
  }

  private static Check asked(MongoClient client, ServerFacts facts, MongoSettings settings, CellKeyPlan cellKey,
      Properties properties) {
    // Before a load the collection is empty (or missing, not sharded yet): there is nothing to ask about.
    MongoDatabase database = client.getDatabase(settings.connection().database());
    if (database.getCollection(settings.collection()).find().limit(1).first() == null) {
      return Check.ok(NAME, "skipped: " + settings.namespace() + " holds no documents yet; the router is asked once"
          + " a load has filled it");
    }
    Document sharding = CollectionChecks.shardingOf(client, settings.namespace());
    if (sharding == null) {
      return Check.ok(NAME, "skipped: " + settings.namespace() + " is not sharded, so every query goes to its primary shard");
    }
    GeoQuery query;
    try {
      query = RestaurantCells.firstQuery(properties);
    } catch (ConfigException e) {
      return Check.warn(NAME, "skipped: the scenario's first near query could not be drawn: " + e.getMessage());
    }
    List<Document> chunks = CellKeyPlan.chunks(client, sharding);
    long[] cells = cellKey.coveringOf(query);
    SortedSet<String> owners = cells == null ? ChunkOwnership.holding(chunks) : ChunkOwnership.owners(chunks, cells);
    NearQuery near = cellKey.near(query, settings.queries().maxDistance());
    List<String> reached;
    try {
      reached = MongoExplain.parse(database.runCommand(MongoExplain.command(near.toFindCommand(settings.collection()))))
          .targets();
    } catch (MongoException | IllegalArgumentException e) {
      return Check.warn(NAME, "the router refused to explain a near query (" + e.getMessage() + "); by the version"
          + " table: " + (cells == null ? "a near query goes to every shard holding chunks" : facts.rules().nearTargetingSaid()));
    }
    return judged(new TreeSet<>(reached), owners, CellKeyPlan.shardNames(client).size(), cells);
  }

  /** True when the line says what the router answered (not skipped, not refused). */
  static boolean answered(Check check) {
    return check != null && check.detail().startsWith(ANSWERED);
  }

  /**
   * The line for what the router reached against the owners: ok when they are the same shards, a
   * warning when it reached shards owning none of the query's cells (it does not target by the covering)
   * or fewer than own them (the chunks moved between the two reads).
   *
   * @param cells the covering's cells, or null when the query names none (every shard holding chunks owns it)
   */
  static Check judged(SortedSet<String> reached, SortedSet<String> owners, int shards, long[] cells) {
    String said = ANSWERED + reached.size() + " of " + shards + " shards ("
        + String.join(", ", reached) + "), the shards " + (cells == null ? "holding chunks of the collection"
        : "owning its " + cells.length + " cell" + (cells.length == 1 ? "" : "s")) + ": " + String.join(", ", owners);
    if (reached.equals(owners)) {
      return Check.ok(NAME, said + (cells == null ? " (the key gives a near query nothing to target by: a broadcast,"
          + " as expected)" : ""));
    }
    if (reached.containsAll(owners)) {
      return Check.warn(NAME, said + ": the router does not target near queries by the covering, so each reaches"
          + " shards that hold none of its cells");
    }
    return Check.warn(NAME, said + ": chunks moved between the explain and the read of config.chunks (a balancer"
        + " round?); preflight again to see where they settled");
  }
}
