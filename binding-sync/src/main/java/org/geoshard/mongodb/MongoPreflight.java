package org.geoshard.mongodb;

import com.mongodb.MongoException;
import com.mongodb.client.MongoClient;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.bson.Document;
import org.geoshard.geo.contract.Restaurant;
import org.geoshard.harness.api.Preflight;
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
   * @param counts the collections' documents against the scenario's dataset (the topology's collection, or
   *     the location stream's History and LastKnownLocation), or none to say what the topology holds
   * @param refusals what the next run would refuse, each in the run's own sentence (none before a load)
   * @param geoIndex whether the collection has its 2dsphere index on the field the near queries use, or null
   *     when the scenario makes none
   */
  static List<Check> checks(MongoClient client, ServerFacts facts, MongoSettings settings, Map<String, Object> topology,
      boolean cellKey, String lklKeyProblem, List<Check> counts, List<String> refusals, Boolean geoIndex) {
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
    boolean saidByRefusal = documents instanceof Number n && n.longValue() == 0 && !refusals.isEmpty();
    if (!counts.isEmpty() || saidByRefusal) {
      checks.addAll(counts);  // an empty collection before a run: the run's refusal below says it
    } else if (documents == null) {
      checks.add(Check.warn("collection", topology.get("namespace") + ": documents unreadable: "
          + topology.getOrDefault("documentsUnavailable", "")));
    } else {
      checks.add(Check.ok("collection", topology.get("namespace") + " holds " + documents + " documents"));
    }
    for (String refusal : refusals) {
      checks.add(Check.fail("the run would refuse", refusal));
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
    if (indexes == null) {
      checks.add(Check.warn("indexes", "unreadable: " + topology.getOrDefault("indexesUnavailable", "")));
    } else if (geoIndex == null || geoIndex) {
      checks.add(Check.ok("indexes", indexes + (geoIndex == null ? "" : " (2dsphere on '" + Restaurant.LOCATION + "')")));
    } else {
      // Before a run, the refusal above says it; before a load, the load builds it.
      checks.add(new Check("indexes", refusals.isEmpty() ? Preflight.Verdict.OK : Preflight.Verdict.FAIL, indexes
          + ": no 2dsphere index on '" + Restaurant.LOCATION + "'" + (refusals.isEmpty() ? " (a load builds it)" : "")));
    }
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

  static Check version(ServerFacts facts) {
    ServerVersion fcv = facts.fcv();
    String server = facts.product().describe(facts.version());
    if (!facts.product().isMongoDB()) {
      // What it measures says nothing of MongoDB, and the version it claims decides nothing of its behaviour.
      return Check.warn("server version", server + ", feature compatibility version "
          + (fcv == null ? "unreadable" : fcv.major() + "." + fcv.minor()) + ": its measurements say nothing of MongoDB");
    }
    if (fcv == null) {
      return Check.warn("server version", server + ", feature compatibility version unreadable (admin.system.version):"
          + " the binary's version decides the version rules, which may not be the data's");
    }
    if (fcv.major() != facts.version().major() || fcv.minor() != facts.version().minor()) {
      return Check.warn("server version", server + " with feature compatibility version " + fcv.major() + "."
          + fcv.minor() + ": the older version's behaviour applies (an upgrade not finished?)");
    }
    return Check.ok("server version", server + ", feature compatibility version " + fcv.major() + "." + fcv.minor());
  }

  /**
   * {@code localTime} in milliseconds since the epoch: a BSON date from MongoDB, an Int64 (or another
   * number) from some wire servers; null when absent or of another type.
   */
  static Long localTimeMillis(Document hello) {
    Object value = hello.get("localTime");
    return value instanceof Date date ? Long.valueOf(date.getTime()) : value instanceof Number n ? Long.valueOf(n.longValue()) : null;
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
      Long local = localTimeMillis(hello);
      if (local == null) {
        return Check.warn("clock skew", "the server does not tell its time (no localTime in isMaster)");
      }
      long skew = local - (sent + received) / 2;
      String detail = "server clock " + (skew >= 0 ? "+" : "") + skew + " ms against this client (round trip "
          + (received - sent) + " ms)";
      return Math.abs(skew) > SKEW_WARN_MS ? Check.warn("clock skew", detail + ": times of servers.csv and the run disagree")
          : Check.ok("clock skew", detail);
    } catch (MongoException | ClassCastException e) {
      return Check.warn("clock skew", "unreadable: " + e.getMessage());
    }
  }
}
