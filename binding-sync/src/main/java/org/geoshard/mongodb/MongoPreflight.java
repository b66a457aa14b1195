package org.geoshard.mongodb;

import com.mongodb.MongoException;
import com.mongodb.client.MongoClient;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.bson.Document;
import org.geoshard.harness.api.Preflight.Check;

/**
 * What {@code bin/ycsb preflight mongodb-geo|mongodb-async} reads (nothing is changed on the server):
 * the nodes reached and their versions and feature compatibility version, the topology against what
 * the properties expect, the collection, its shard key against {@code mongodb.shardkey}, its indexes
 * and documents per shard, the balancer, the clock skew between this client and each node, and the
 * version-dependent facts known so far ({@link ServerFacts}).
 */
final class MongoPreflight {
  /** A clock further off than this makes times in servers.csv and the run's timeseries disagree. */
  static final long SKEW_WARN_MS = 1_000;

  private MongoPreflight() {
  }

  /**
   * @param cellKey the ranged cell key is in use (its near queries carry the covering)
   * @param lklKeyProblem why the LastKnownLocation key cannot be upserted on its cluster, or null
   */
  static List<Check> checks(MongoClient client, ServerFacts facts, MongoSettings settings, Map<String, Object> topology,
      boolean cellKey, String lklKeyProblem) {
    List<Check> checks = new ArrayList<>();
    checks.add(Check.ok("nodes reached", settings.connection().maskedUrl() + (facts.hosts().isEmpty() ? "" : " " + facts.hosts())));
    checks.add(version(facts));
    boolean wantsSharding = settings.preparation().shardKey() != null;
    String deployment = facts.kind().label() + (facts.replicaSet() == null ? "" : " " + facts.replicaSet());
    Object shards = topology.get("shards");
    if (facts.sharded()) {
      deployment += shards instanceof List<?> list ? ", " + list.size() + " shards" : ", shards unreadable";
    }
    if (wantsSharding && !facts.sharded()) {
      checks.add(Check.fail("topology", deployment + ", but mongodb.shardkey = " + settings.preparation().shardKey()
          + " needs a sharded cluster (a mongos in mongodb.url)"));
    } else {
      checks.add(Check.ok("topology", deployment));
    }
    Object documents = topology.get("documents");
    if (documents == null) {
      checks.add(Check.warn("collection", settings.namespace() + ": documents unreadable: "
          + topology.getOrDefault("documentsUnavailable", "")));
    } else if (documents instanceof Number n && n.longValue() == 0) {
      checks.add(Check.ok("collection", settings.namespace() + " is empty or absent: a load fills it"));
    } else {
      checks.add(Check.ok("collection", settings.namespace() + " holds " + documents + " documents"));
    }
    if (facts.sharded()) {
      Object key = topology.get("shardKey");
      if (wantsSharding && key instanceof Document stored && !settings.preparation().shardKey().matches(stored)) {
        checks.add(Check.fail("shard key", settings.namespace() + " is sharded by " + stored.toJson()
            + ", but mongodb.shardkey = " + settings.preparation().shardKey() + ": drop it (mongodb.drop=true) or change the property"));
      } else {
        checks.add(Check.ok("shard key", String.valueOf(key instanceof Document d ? d.toJson() : key)
            + (wantsSharding ? " (mongodb.shardkey = " + settings.preparation().shardKey() + ")" : "")));
      }
      checks.add(Check.ok("documents per shard", String.valueOf(shards)));
      Object balancer = topology.get("balancer");
      checks.add(balancer == null ? Check.warn("balancer", "state unreadable") : Check.ok("balancer", balancer.toString()));
    }
    checks.addAll(versionChecks(facts, cellKey, lklKeyProblem));
    Object indexes = topology.get("indexes");
    checks.add(indexes == null ? Check.warn("indexes", "unreadable: " + topology.getOrDefault("indexesUnavailable", ""))
        : Check.ok("indexes", indexes.toString()));
    checks.add(clockSkew(client));
    return checks;
  }

  /**
   * The rows of the version table that matter to the scenario: a router that cannot target by the
   * cell key is a warning, an LKL key the cluster cannot upsert a failure.
   */
  static List<Check> versionChecks(ServerFacts facts, boolean cellKey, String lklKeyProblem) {
    List<Check> checks = new ArrayList<>();
    for (VersionRules.Row row : facts.rules().rows(cellKey, false)) {
      String detail = row.applies() + " [" + row.source() + "]";
      checks.add(row.caution() ? Check.warn(row.topic(), detail) : Check.ok(row.topic(), detail));
    }
    if (lklKeyProblem != null) {
      checks.add(Check.fail("Last-Known-Location upsert", lklKeyProblem));
    }
    return checks;
  }

  private static Check version(ServerFacts facts) {
    ServerVersion fcv = facts.fcv();
    if (fcv == null) {
      return Check.ok("server version", facts.version() + ", feature compatibility version unreadable");
    }
    if (fcv.major() != facts.version().major() || fcv.minor() != facts.version().minor()) {
      return Check.warn("server version", facts.version() + " with feature compatibility version " + fcv.major() + "."
          + fcv.minor() + ": the older version's behaviour applies (an upgrade not finished?)");
    }
    return Check.ok("server version", facts.version() + ", feature compatibility version " + fcv.major() + "." + fcv.minor());
  }

  /**
   * This client's clock against the node's ({@code isMaster.localTime}), corrected by half the round trip.
   * Through a mongos this is the router's clock.
   */
  static Check clockSkew(MongoClient client) {
    try {
      long sent = System.currentTimeMillis();
      Document hello = client.getDatabase("admin").runCommand(new Document("isMaster", 1));  // every version answers it
      long received = System.currentTimeMillis();
      Date local = hello.getDate("localTime");
      if (local == null) {
        return Check.warn("clock skew", "the server does not tell its time (no localTime in isMaster)");
      }
      long skew = local.getTime() - (sent + received) / 2;
      String detail = "server clock " + (skew >= 0 ? "+" : "") + skew + " ms against this client (round trip "
          + (received - sent) + " ms)";
      return Math.abs(skew) > SKEW_WARN_MS ? Check.warn("clock skew", detail + ": times of servers.csv and the run disagree")
          : Check.ok("clock skew", detail);
    } catch (MongoException | ClassCastException e) {
      return Check.warn("clock skew", "unreadable: " + e.getMessage());
    }
  }
}
