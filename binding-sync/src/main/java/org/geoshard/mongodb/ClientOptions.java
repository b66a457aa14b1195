package org.geoshard.mongodb;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoDatabase;
import java.util.concurrent.TimeUnit;

/**
 * The driver settings every client of both bindings gets, in one place: the URL, every request's
 * deadline (the driver's client-side operation timeout, {@code mongodb.timeout.ms}), the server
 * selection timeout (the URL's wins, see {@link MongoConnectionSettings}), the pool size (one connection per
 * client thread unless the user says otherwise, {@link MongoConnectionSettings#poolSize()}), the application
 * name and the listeners: what the connection settings say, and nothing else (so that equal connection
 * settings can share one client).
 */
public final class ClientOptions {
  private ClientOptions() {
  }

  /** A builder with the bindings' settings applied; callers add what is theirs (listeners, pinning). */
  public static MongoClientSettings.Builder builder(ConnectionString cs, MongoConnectionSettings settings) {
    MongoClientSettings.Builder builder = MongoClientSettings.builder()
        .applyConnectionString(cs)
        .timeout(settings.timeout(TimeUnit.MILLISECONDS), TimeUnit.MILLISECONDS)
        .applyToClusterSettings(b -> b.serverSelectionTimeout(settings.serverSelectionTimeout(TimeUnit.MILLISECONDS),
            TimeUnit.MILLISECONDS));
    if (cs.getApplicationName() == null) {
      builder.applicationName("geoshard");  // tells the benchmark's connections apart in currentOp and server logs
    }
    // One connection per client thread unless the user sized the pool (see MongoConnectionSettings#poolSize); a
    // minPoolSize above it would be refused by the driver, so it is lowered to the pool.
    builder.applyToConnectionPoolSettings(b -> b.maxSize(settings.poolSize())
        .minSize(Math.min(settings.poolSize(), cs.getMinConnectionPoolSize() == null ? 0 : cs.getMinConnectionPoolSize())));
    settings.commandListeners().forEach(builder::addCommandListener);
    return builder;
  }

  /** The database of {@code settings} on a sync client, with the bindings' write concern and read preference. */
  public static MongoDatabase database(MongoClient client, MongoSettings settings) {
    MongoDatabase database = client.getDatabase(settings.connection().database());
    if (settings.writes().writeConcern() != null) {
      database = database.withWriteConcern(settings.writes().writeConcern());
    }
    if (settings.queries().readPreference() != null) {
      database = database.withReadPreference(settings.queries().readPreference());
    }
    return database;
  }
}
