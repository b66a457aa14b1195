package org.geoshard.mongodb.async;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.connection.ClusterConnectionMode;
import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;
import com.mongodb.reactivestreams.client.MongoCollection;
import com.mongodb.reactivestreams.client.MongoDatabase;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.bson.Document;
import org.geoshard.harness.config.Secrets;
import org.geoshard.mongodb.ClientOptions;
import org.geoshard.mongodb.MongoSettings;

/**
 * One router the binding sends requests to: the default ({@code mongodb.url}) or the router next to a
 * shard, with its own reactive streams client (a shard's pinned to its one host) and its counters.
 * Shared by every binding instance of the JVM (through {@link Router}).
 */
final class Endpoint {
  final String name;
  final String maskedUrl;
  final MongoClient client;
  final MongoDatabase database;
  final EndpointCounters counters;
  private final Map<String, MongoCollection<Document>> collections = new ConcurrentHashMap<>();

  private Endpoint(String name, String url, MongoClient client, MongoDatabase database, EndpointCounters counters) {
    this.name = name;
    this.maskedUrl = Secrets.maskText(url);
    this.client = client;
    this.database = database;
    this.counters = counters;
    counters.maskedUrl = maskedUrl;
  }

  /**
   * Opens the client (lazily connecting, as the driver does).
   *
   * @param pinned true for a shard's router: the client talks to that one host only (direct connection),
   *     unless the URL asks for a load balancer (loadBalanced=true), which pins by itself
   */
  static Endpoint open(String name, String url, MongoSettings settings, boolean pinned, EndpointCounters counters) {
    ConnectionString cs = new ConnectionString(url);
    boolean loadBalanced = Boolean.TRUE.equals(cs.isLoadBalanced());
    MongoClientSettings.Builder builder = ClientOptions.builder(cs, settings)
        .applyToClusterSettings(b -> {
          if (pinned && !loadBalanced) {
            b.mode(ClusterConnectionMode.SINGLE);
          }
        })
        .addCommandListener(counters.commands);
    MongoClient client = MongoClients.create(builder.build());
    MongoDatabase database = client.getDatabase(settings.database());
    if (settings.writeConcern() != null) {
      database = database.withWriteConcern(settings.writeConcern());
    }
    if (settings.readPreference() != null) {
      database = database.withReadPreference(settings.readPreference());
    }
    return new Endpoint(name, url, client, database, counters);
  }

  MongoCollection<Document> collection(String name) {
    MongoCollection<Document> c = collections.get(name);
    return c != null ? c : collections.computeIfAbsent(name, database::getCollection);
  }

  void close() {
    client.close();
  }

  @Override
  public String toString() {
    return name + " (" + maskedUrl + ")";
  }
}
