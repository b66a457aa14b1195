package org.geoshard.mongodb.async;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The routing's counters for one configuration (URL, routing, endpoints), kept for the phase by
 * {@link Routers} next to the shared clients and never dropped, so that a binding instance made after
 * the run (the harness's topology) reports what the run's threads did: requests per endpoint, requests
 * that fell back to the default router and why, and refreshes of the routing tables.
 */
final class RoutingStats {

  /** Why a request went to the default router under targeted routing. */
  enum Fallback {
    /** The request names no shard key value (scans, near queries, filters without the key's first field). */
    NO_SHARD_KEY("noShardKey"),
    /** The key prefix given spans chunks on several shards. */
    SPANS_SHARDS("spansShards"),
    /** The collection is not sharded (or not yet). */
    UNSHARDED("unsharded"),
    /** The owning shard has no router in mongodb.targeted.mongos. */
    NO_ENDPOINT("noEndpoint"),
    /** The routing table could not be read (privileges, catalog unreadable). */
    TABLE_UNAVAILABLE("tableUnavailable");

    final String label;

    Fallback(String label) {
      this.label = label;
    }
  }

  private final Map<String, EndpointCounters> endpoints = new ConcurrentHashMap<>();
  private final LongAdder[] fallbacks = new LongAdder[Fallback.values().length];
  private final Map<String, LongAdder> refreshes = new ConcurrentHashMap<>();
  private final LongAdder polls = new LongAdder();
  private final LongAdder pollFailures = new LongAdder();
  private final Map<String, Map<String, Object>> tables = new ConcurrentHashMap<>();

  RoutingStats() {
    for (int i = 0; i < fallbacks.length; i++) {
      fallbacks[i] = new LongAdder();
    }
  }

  EndpointCounters endpoint(String name) {
    return endpoints.computeIfAbsent(name, n -> new EndpointCounters());
  }

  void fallback(Fallback reason) {
    fallbacks[reason.ordinal()].increment();
  }

  long fallbacks(Fallback reason) {
    return fallbacks[reason.ordinal()].sum();
  }

  void refreshed(String reason) {
    refreshes.computeIfAbsent(reason, r -> new LongAdder()).increment();
  }

  long refreshes() {
    return refreshes.values().stream().mapToLong(LongAdder::sum).sum();
  }

  void polled(boolean ok) {
    polls.increment();
    if (!ok) {
      pollFailures.increment();
    }
  }

  void table(String namespace, Map<String, Object> description) {
    tables.put(namespace, description);
  }

  /** For run.json: endpoints (default first), fallbacks by reason, refreshes by reason, tables. */
  Map<String, Object> describe() {
    Map<String, Object> out = new LinkedHashMap<>();
    Map<String, Object> eps = new LinkedHashMap<>();
    EndpointCounters def = endpoints.get(Router.DEFAULT);
    if (def != null) {
      eps.put(Router.DEFAULT, def.describe());
    }
    new TreeMap<>(endpoints).forEach((name, c) -> {
      if (!name.equals(Router.DEFAULT)) {
        eps.put(name, c.describe());
      }
    });
    out.put("endpoints", eps);
    Map<String, Object> fb = new LinkedHashMap<>();
    long total = 0;
    for (Fallback f : Fallback.values()) {
      long n = fallbacks[f.ordinal()].sum();
      total += n;
      fb.put(f.label, n);
    }
    Map<String, Object> fallbackOut = new LinkedHashMap<>();
    fallbackOut.put("total", total);
    fallbackOut.put("byReason", fb);
    out.put("fallbacks", fallbackOut);
    Map<String, Object> refreshOut = new LinkedHashMap<>();
    refreshOut.put("total", refreshes());
    Map<String, Long> byReason = new TreeMap<>();
    refreshes.forEach((r, n) -> byReason.put(r, n.sum()));
    refreshOut.put("byReason", byReason);
    refreshOut.put("polls", polls.sum());
    refreshOut.put("pollFailures", pollFailures.sum());
    out.put("refreshes", refreshOut);
    out.put("tables", new TreeMap<>(tables));
    return out;
  }
}
