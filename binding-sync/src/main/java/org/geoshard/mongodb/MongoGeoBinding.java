package org.geoshard.mongodb;

import com.mongodb.client.MongoCollection;
import com.mongodb.event.CommandListener;
import java.util.List;
import java.util.Properties;
import org.bson.Document;
import org.geoshard.harness.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.DBException;

/**
 * Binding {@code mongodb-geo}: MongoDB through the official sync driver, every request through
 * {@code mongodb.url}. It serves YCSB's five operations (so {@code CoreWorkload} runs unchanged:
 * {@code _id} is the key, fields are binary), the geo workload's contract (batched restaurant loads,
 * {@code $nearSphere} queries), the last-location contract, the preparation of a scenario (collection,
 * sharding, 2dsphere index, each step timed) and a description of the topology: all of it in
 * {@link MongoBinding} and {@link MongoOperations}, shared with {@code mongodb-async}; this class only
 * opens its request path ({@link SyncRequestPath}).
 *
 * <p>One instance per client thread (YCSB's contract); all instances of a phase share one client per URL
 * ({@link SharedClients}). See {@code binding-sync/README.md} for the properties.
 */
public final class MongoGeoBinding extends MongoBinding {
  private static final Logger LOG = LoggerFactory.getLogger(MongoGeoBinding.class);

  private final List<CommandListener> extraListeners;
  private SharedClients.Lease lease;
  private SyncRequestPath path;

  /** As the harness makes it, one per client thread. */
  public MongoGeoBinding() {
    this(List.of());
  }

  /** With listeners on every command of its client (tests observe what goes on the wire). */
  MongoGeoBinding(List<CommandListener> extraListeners) {
    this.extraListeners = List.copyOf(extraListeners);
  }

  @Override
  protected MongoSettings configure(Properties properties) throws ConfigException {
    return MongoSettings.fromProperties(properties, extraListeners);
  }

  @Override
  protected RequestPath connect() throws DBException {
    lease = sharedClients().acquire(mongoSettings());
    path = new SyncRequestPath(database(lease, mongoSettings()));
    return path;
  }

  @Override
  protected SharedClients.Lease control() {
    return lease;
  }

  @Override
  protected void disconnect() {
    if (lease != null) {
      lease.close();
      lease = null;
    }
  }

  /** One per phase, shared by the phase's instances: the rate limit counts the phase's failures. */
  @Override
  protected FailureLog failureLog() {
    return context().shared(FailureLog.class.getName() + "@" + MongoGeoBinding.class.getName(), FailureLog.class,
        () -> new FailureLog(LOG));
  }

  /** The settings in use (after {@link #init()}). */
  MongoSettings settings() {
    return mongoSettings();
  }

  /** The geo collection with the binding's write concern and read preference (after {@link #init()}). */
  MongoCollection<Document> geoCollection() {
    return path.collection(mongoSettings().collection());
  }
}
