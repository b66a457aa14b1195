package org.geoshard.mongodb.async;

import com.mongodb.event.CommandListener;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.geoshard.harness.api.DataRole;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.mongodb.FailureLog;
import org.geoshard.mongodb.MongoBinding;
import org.geoshard.mongodb.MongoSettings;
import org.geoshard.mongodb.RequestPath;
import org.geoshard.mongodb.SharedClients;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.DBException;

/**
 * Binding {@code mongodb-async}: MongoDB through the official reactive streams driver, with targeted
 * routing. It serves what {@code mongodb-geo} serves, with the same operations, documents, queries,
 * checks, preparation and topology ({@link MongoBinding}, shared from binding-sync); only its request
 * path is its own ({@link ReactiveRequestPath}).
 *
 * <p>With {@code mongodb.routing=targeted} each request whose shard key value the binding knows (YCSB's
 * operations by {@code _id}, inserts by their document, last-location requests by user) goes to the
 * router next to the shard that owns it ({@link Router}); the rest (scans, near queries) to
 * {@code mongodb.url}. A batch of inserts is split by owner and its parts written concurrently.
 *
 * <p>YCSB's threads call synchronously: each request subscribes on the calling thread and parks until
 * the driver completes it ({@link Blocking}); no executor in between. One instance per client thread;
 * all instances of a phase share the clients and the routing tables ({@link Routers}, in the phase's
 * context; under plain YCSB the JVM's).
 */
public final class MongoAsyncBinding extends MongoBinding {
  private static final Logger LOG = LoggerFactory.getLogger(MongoAsyncBinding.class);

  private final List<CommandListener> extraListeners;
  private AsyncSettings settings;
  private Router router;

  /** As the harness makes it, one per client thread. */
  public MongoAsyncBinding() {
    this(List.of());
  }

  /** With listeners on every command of every client (tests observe where requests go). */
  MongoAsyncBinding(List<CommandListener> extraListeners) {
    this.extraListeners = List.copyOf(extraListeners);
  }

  @Override
  protected MongoSettings configure(Properties properties) throws ConfigException {
    settings = AsyncSettings.fromProperties(properties, extraListeners);
    return settings.mongo();
  }

  @Override
  protected RequestPath connect() throws DBException {
    router = Routers.in(context()).acquire(settings);
    return new ReactiveRequestPath(router);
  }

  @Override
  protected SharedClients.Lease control() {
    return router.control;
  }

  @Override
  protected void disconnect() {
    if (router != null) {
      router.release();
      router = null;
    }
  }

  /** One per phase, shared by the phase's instances: the rate limit counts the phase's failures. */
  @Override
  protected FailureLog failureLog() {
    return context().shared(FailureLog.class.getName() + "@" + MongoAsyncBinding.class.getName(), FailureLog.class,
        () -> new FailureLog(LOG));
  }

  /** With targeted routing, the router next to each shard is sampled beside those of {@code mongodb.url}. */
  @Override
  protected List<String> moreRouters() {
    if (!settings.targeted()) {
      return List.of();
    }
    return settings.endpoints().values().stream()
        .flatMap(url -> new com.mongodb.ConnectionString(url).getHosts().stream())
        .map(host -> new com.mongodb.ServerAddress(host).toString()).distinct().toList();
  }

  /** binding-sync's preparation (collections, sharding, indexes), then the routing tables read again. */
  @Override
  public void prepare(Stage stage, Set<DataRole> data, Steps steps) throws DBException {
    super.prepare(stage, data, steps);
    router.refreshAll("onDemand");
  }

  /**
   * binding-sync's description of the deployment, with {@code routing}: the mode, each endpoint's
   * requests (by kind), failures, documents written and driver commands, the fallbacks to the default
   * router by reason, the table refreshes, and each table's version and chunks per shard.
   * {@code driverCommands} adds every endpoint's commands to the control plane's.
   */
  @Override
  public Map<String, Object> topology(java.util.Set<org.geoshard.harness.api.DataRole> data) throws DBException {
    Map<String, Object> out = new LinkedHashMap<>(super.topology(data));
    Map<String, Object> routing = router.describe();
    out.put("routing", routing);
    Map<String, Object> commands = new java.util.TreeMap<>();
    Object control = out.get("driverCommands");
    if (control instanceof Map<?, ?> m) {
      m.forEach((k, v) -> commands.put(String.valueOf(k), v));
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> endpoints = (Map<String, Object>) routing.get("endpoints");
    for (Object ep : endpoints.values()) {
      @SuppressWarnings("unchecked")
      Map<String, Object> driver = (Map<String, Object>) ((Map<String, Object>) ep).get("driverCommands");
      driver.forEach((k, v) -> commands.merge(k, v, MongoAsyncBinding::addCounts));
    }
    out.put("driverCommands", commands);
    return out;
  }

  @SuppressWarnings("unchecked")
  private static Object addCounts(Object a, Object b) {
    Map<String, Object> x = (Map<String, Object>) a;
    Map<String, Object> y = (Map<String, Object>) b;
    long nx = ((Number) x.get("count")).longValue();
    long ny = ((Number) y.get("count")).longValue();
    Map<String, Object> sum = new LinkedHashMap<>();
    sum.put("count", nx + ny);
    sum.put("failed", ((Number) x.get("failed")).longValue() + ((Number) y.get("failed")).longValue());
    long mean = nx + ny == 0 ? 0 : (((Number) x.get("meanMicros")).longValue() * nx
        + ((Number) y.get("meanMicros")).longValue() * ny) / (nx + ny);
    sum.put("meanMicros", mean);
    return sum;
  }

  /** The settings in use (after {@link #init()}). */
  AsyncSettings settings() {
    return settings;
  }

  /** The shared router (after {@link #init()}). */
  Router router() {
    return router;
  }
}
