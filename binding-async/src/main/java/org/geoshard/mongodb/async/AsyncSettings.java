package org.geoshard.mongodb.async;

import com.mongodb.ConnectionString;
import com.mongodb.event.CommandListener;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SortedMap;
import java.util.TreeMap;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.config.PropertyReader;
import org.geoshard.harness.api.Secrets;
import org.geoshard.mongodb.MongoConnectionSettings;
import org.geoshard.mongodb.MongoSettings;

/**
 * The settings of {@code mongodb-async}: every {@code mongodb.*} setting of the sync binding
 * ({@link MongoSettings}, shared) plus the routing:
 *
 * <ul>
 *   <li>{@code mongodb.routing}: {@code mongos} (default; every request to {@code mongodb.url}, as the
 *       sync binding) or {@code targeted} (each request whose shard key the binding knows to the router
 *       next to the shard that owns it);</li>
 *   <li>{@code mongodb.targeted.mongos.<shardId>=<url>}: the router co-located with each shard, one host
 *       per URL (the client is pinned to it). The same map also fits in one property,
 *       {@code mongodb.targeted.mongos=<shardId>=<url>;<shardId>=<url>...};</li>
 *   <li>{@code mongodb.targeted.refresh}: seconds between looks at the collection version (default 10).</li>
 * </ul>
 * Immutable; every problem is reported at once, one sentence each, URLs masked.
 */
public final class AsyncSettings {
  public static final String ROUTING = "mongodb.routing";
  public static final String TARGETED_MONGOS = "mongodb.targeted.mongos";
  public static final String TARGETED_MONGOS_PREFIX = TARGETED_MONGOS + ".";
  public static final String TARGETED_REFRESH = "mongodb.targeted.refresh";
  public static final long DEFAULT_REFRESH_SECONDS = 10;
  public static final long MAX_REFRESH_SECONDS = 3600;

  /** How requests reach the cluster. */
  public enum Routing {
    /** Every request through {@code mongodb.url}: the routers route (the sync binding's way). */
    MONGOS,
    /** Keyed requests to the router next to the owning shard; the rest through {@code mongodb.url}. */
    TARGETED
  }

  private final MongoSettings mongo;
  private final Routing routing;
  private final SortedMap<String, String> endpoints;
  private final long refreshSeconds;

  private AsyncSettings(MongoSettings mongo, Routing routing, SortedMap<String, String> endpoints, long refreshSeconds) {
    this.mongo = mongo;
    this.routing = routing;
    this.endpoints = endpoints;
    this.refreshSeconds = refreshSeconds;
  }

  /**
   * @throws ConfigException every malformed or contradictory property (the shared ones included)
   */
  public static AsyncSettings fromProperties(Properties properties, List<CommandListener> listeners)
      throws ConfigException {
    List<String> problems = new ArrayList<>();
    MongoSettings mongo = null;
    try {
      mongo = MongoSettings.fromProperties(properties, listeners);
    } catch (ConfigException e) {
      problems.addAll(e.problems());
    }
    PropertyReader in = new PropertyReader(properties);
    Routing routing = in.choice(ROUTING, Routing.MONGOS, Routing.class);
    long refresh = in.longAtLeast(TARGETED_REFRESH, DEFAULT_REFRESH_SECONDS, 1);
    if (refresh > MAX_REFRESH_SECONDS) {
      in.problem("Property '" + TARGETED_REFRESH + "' must be from 1 to " + MAX_REFRESH_SECONDS + " (seconds), but is "
          + refresh + ".");
    }
    SortedMap<String, String> endpoints = endpoints(properties, in);
    if (routing == Routing.TARGETED && endpoints.isEmpty() && in.problems().isEmpty()) {
      in.problem("Property '" + ROUTING + "' is targeted, but no router is given per shard: set "
          + TARGETED_MONGOS_PREFIX + "<shardId>=mongodb://<mongos next to that shard>:<port> for each shard (or "
          + TARGETED_MONGOS + "=<shardId>=<url>;<shardId>=<url>).");
    }
    if (routing == Routing.TARGETED && mongo != null && mongo.connection().throwaway() != null) {
      in.problem("Property '" + ROUTING + "' is targeted, but '" + MongoSettings.URL + "' is " + mongo.connection().url()
          + ", a throwaway cluster with one mongos; targeted routing needs a router per shard.");
    }
    for (String p : in.problems()) {
      if (!problems.contains(p)) {
        problems.add(p);
      }
    }
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
    return new AsyncSettings(mongo, routing, endpoints, refresh);
  }

  /** The per-shard routers from both forms, each URL checked. */
  private static SortedMap<String, String> endpoints(Properties properties, PropertyReader in) {
    SortedMap<String, String> out = new TreeMap<>();
    for (String name : toMap(properties).keySet()) {
      if (name.startsWith(TARGETED_MONGOS_PREFIX)) {
        String shard = name.substring(TARGETED_MONGOS_PREFIX.length());
        String url = in.raw(name);
        if (shard.isBlank() || shard.chars().anyMatch(Character::isWhitespace)) {
          in.problem("Property '" + name + "' must name a shard after '" + TARGETED_MONGOS_PREFIX + "' (its _id in config.shards).");
        } else if (url == null) {
          in.problem("Property '" + name + "' must be the mongodb:// URL of the router next to shard '" + shard + "', but is empty.");
        } else {
          add(out, shard, url, name, in);
        }
      }
    }
    String list = in.raw(TARGETED_MONGOS);
    if (list != null) {
      for (String entry : list.split("[;\\s]+")) {
        if (entry.isEmpty()) {
          continue;
        }
        int eq = entry.indexOf('=');
        if (eq <= 0 || eq == entry.length() - 1) {
          in.problem("Property '" + TARGETED_MONGOS + "' must be <shardId>=<url> entries separated by ';', but has '"
              + Secrets.maskText(entry) + "'.");
          continue;
        }
        add(out, entry.substring(0, eq), entry.substring(eq + 1), TARGETED_MONGOS, in);
      }
    }
    return out;
  }

  private static Map<String, String> toMap(Properties properties) {
    Map<String, String> out = new TreeMap<>();
    for (String name : properties.stringPropertyNames()) {
      out.put(name, properties.getProperty(name));
    }
    return out;
  }

  private static void add(SortedMap<String, String> out, String shard, String url, String property, PropertyReader in) {
    String problem = endpointProblem(url);
    if (problem != null) {
      in.problem("Property '" + property + "' (shard '" + shard + "') " + problem);
      return;
    }
    if (out.containsKey(shard)) {
      in.problem("Shard '" + shard + "' is given a router twice (" + TARGETED_MONGOS_PREFIX + shard + " and "
          + TARGETED_MONGOS + "); give it once.");
      return;
    }
    out.put(shard, url);
  }

  /** Null when {@code url} names one router the client can be pinned to, else what is wrong (masked). */
  static String endpointProblem(String url) {
    String masked = Secrets.maskText(url);
    if (!url.startsWith("mongodb://") && !url.startsWith("mongodb+srv://")) {
      return "must be a mongodb:// URL of one mongos, but is '" + masked + "'.";
    }
    ConnectionString cs;
    try {
      cs = new ConnectionString(url);
    } catch (IllegalArgumentException e) {
      return "is not a valid connection string ('" + masked + "'): " + Secrets.maskText(e.getMessage());
    }
    boolean loadBalanced = Boolean.TRUE.equals(cs.isLoadBalanced());
    if (cs.isSrvProtocol() && !loadBalanced) {
      return "must name one mongos host (mongodb://host:port); a mongodb+srv:// URL may resolve to several, which "
          + "defeats pinning (use it only with loadBalanced=true for a load balancer in front of one router).";
    }
    if (!loadBalanced && cs.getHosts().size() != 1) {
      return "must name exactly one mongos host (the client is pinned to it), but names " + cs.getHosts().size() + ": '"
          + masked + "'.";
    }
    if (cs.getRequiredReplicaSetName() != null) {
      return "names a replica set (replicaSet=" + cs.getRequiredReplicaSetName() + "), but must be a mongos.";
    }
    if (Boolean.FALSE.equals(cs.isDirectConnection()) && !loadBalanced) {
      return "sets directConnection=false, but the client must be pinned to that one mongos.";
    }
    return null;
  }

  public MongoSettings mongo() {
    return mongo;
  }

  public Routing routing() {
    return routing;
  }

  public boolean targeted() {
    return routing == Routing.TARGETED;
  }

  /** Shard id to the URL of the router next to it (given; used only when targeted). */
  public SortedMap<String, String> endpoints() {
    return endpoints;
  }

  public long refreshSeconds() {
    return refreshSeconds;
  }

  /**
   * What identifies one router state of a phase ({@link Routers}): the shared client's connection settings (equal when they make
   * the same client), the routing and, when targeted, its endpoints and refresh.
   */
  record Key(MongoConnectionSettings connection, Routing routing, SortedMap<String, String> endpoints, long refreshSeconds) {
    @Override
    public String toString() {
      return "Key{" + connection + ", routing=" + routing + ", endpoints=" + Secrets.maskText(endpoints.toString())
          + ", refreshSeconds=" + refreshSeconds + "}";
    }
  }

  Key key() {
    return targeted()
        ? new Key(mongo.connection(), routing, Collections.unmodifiableSortedMap(new TreeMap<>(endpoints)), refreshSeconds)
        : new Key(mongo.connection(), routing, Collections.emptySortedMap(), 0);
  }

  @Override
  public String toString() {
    return "AsyncSettings{" + mongo + ", routing=" + routing + ", endpoints=" + Secrets.maskText(endpoints.toString())
        + ", refreshSeconds=" + refreshSeconds + "}";
  }
}
