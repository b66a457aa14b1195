package org.geoshard.mongodb.async;

import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoDatabase;
import org.geoshard.mongodb.ClientOptions;
import org.geoshard.mongodb.MongoSettings;

/**
 * What {@link ClientOptions} gives the sync driver's clients, for the reactive streams driver's: the
 * client settings are the same builder ({@link ClientOptions#builder}); the database is this twin, since
 * the two drivers share no type.
 */
public final class ReactiveClientOptions {
  private ReactiveClientOptions() {
  }

  /** The database of {@code settings} on a reactive client, with the bindings' write concern and read preference. */
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
