package org.geoshard.mongodb;

import com.mongodb.MongoCommandException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.CountOptions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.bson.Document;
import org.geoshard.harness.api.Preparable;
import org.geoshard.mongodb.MongoSettings.IndexWhen;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.DBException;

/**
 * Prepares the geo collection for a scenario, each step timed by the harness into {@code run.json}.
 * Idempotent: every step looks before it acts, so running a stage twice leaves the cluster as running
 * it once.
 *
 * <ul>
 *   <li>Before the load: drop (if {@code mongodb.drop}; else a load over records the collection holds
 *       already is refused), create the collection, shard it on {@code mongodb.shardkey} (after
 *       {@code enableSharding}, always sent: it is idempotent, and whether it may be skipped depends on
 *       the FCV), and the 2dsphere index when {@code mongodb.index.when=before}.</li>
 *   <li>After the load: the 2dsphere index when {@code mongodb.index.when=after} (the study's choice),
 *       timed overall and on each shard ({@link IndexBuildWatcher}).</li>
 * </ul>
 *
 * <p><b>Presplitting.</b> A hashed key on an empty collection is presplit by the server itself: before
 * FCV 7.2 into {@code numInitialChunks} chunks (default 2 per shard) spread over the shards; from
 * 7.2 (so in 8.0) into one chunk per shard, and {@code numInitialChunks} is deprecated and ignored
 * (SERVER-74747, SERVER-76405), so the binding does not send it there. Since 6.0.3 the balancer moves
 * data by size, not chunk count, so more initial chunks buy nothing on new servers. A ranged key starts
 * as one chunk on the primary shard; the binding does not guess split points for it.
 */
final class ClusterPreparation {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterPreparation.class);
  private static final int NAMESPACE_EXISTS = 48;
  private static final int ALREADY_INITIALIZED = 23;

  private final MongoClient client;
  private final ServerFacts facts;
  private final MongoSettings settings;
  private final MongoDatabase database;
  private final AdminCommands admin;

  ClusterPreparation(MongoClient client, ServerFacts facts, MongoSettings settings) {
    this(client, facts, settings, AdminCommands.over(client));
  }

  /** @param admin where the sharding commands go (a scripted router in the version-rule tests) */
  ClusterPreparation(MongoClient client, ServerFacts facts, MongoSettings settings, AdminCommands admin) {
    this.admin = admin;
    this.client = client;
    this.facts = facts;
    this.settings = settings;
    this.database = client.getDatabase(settings.connection().database());
  }

  /**
   * @param load the records a geo load inserts, checked against what the collection holds (null: not a
   *     geo load, nothing checked)
   */
  void prepare(Preparable.Stage stage, Preparable.Steps steps, LoadRange load) throws DBException {
    if (stage == Preparable.Stage.BEFORE_LOAD) {
      if (settings.preparation().drop()) {
        steps.step("drop collection", this::drop);
      } else if (load != null) {
        refuseLoadedAlready(load);
      }
      steps.step("create collection", this::create);
      if (settings.preparation().shardKey() != null) {
        steps.step("shard collection", this::shard);
      }
      if (settings.preparation().indexWhen() == IndexWhen.BEFORE) {
        steps.step("2dsphere index", this::geoIndex);
      }
    } else if (settings.preparation().indexWhen() == IndexWhen.AFTER) {
      steps.step("2dsphere index", this::geoIndex);
    }
  }

  /**
   * A load into records the collection already holds would fail record by record (duplicate keys)
   * while nothing is wrong with the server: refuse it before the start, saying what to do.
   */
  void refuseLoadedAlready(LoadRange load) throws MongoStartException {
    if (!exists()) {
      return;
    }
    MongoCollection<Document> collection = database.getCollection(settings.collection());
    long already = load.split() ? collection.countDocuments(load.filter(), new CountOptions().limit(1_000_000))
        : collection.estimatedDocumentCount();
    if (already == 0) {
      return;
    }
    throw new MongoStartException("Collection " + settings.namespace() + " already holds " + already
        + (already >= 1_000_000 ? " or more" : "") + " documents" + (load.split() ? " of this load's " + load.describe() : "")
        + ": set " + MongoSettings.DROP + "=true to load it afresh" + (load.split()
            ? ", or give this client records not loaded yet (insertstart, insertcount)."
            : ", or load the records not there yet with insertstart and insertcount."));
  }

  private boolean exists() {
    return exists(settings.collection());
  }

  private boolean exists(String collection) {
    return database.listCollectionNames().into(new ArrayList<>()).contains(collection);
  }

  Map<String, Object> drop() {
    return drop(settings.collection());
  }

  /** Drops one collection of the database if it exists, saying how many documents it held. */
  Map<String, Object> drop(String collection) {
    boolean existed = exists(collection);
    Map<String, Object> details = details(collection);
    details.put("existed", existed);
    if (existed) {
      details.put("documents", dropCounted(database, collection));
    }
    return details;
  }

  /** Drops a collection that exists, logging and returning how many documents it held. */
  static long dropCounted(MongoDatabase database, String collection) {
    MongoCollection<Document> target = database.getCollection(collection);
    long documents = target.countDocuments();
    target.drop();
    LOG.info("Dropped collection {}.{} ({} documents) ({}=true).", database.getName(), collection,
        String.format(java.util.Locale.ROOT, "%,d", documents), MongoSettings.DROP);
    return documents;
  }

  Map<String, Object> create() {
    return create(settings.collection());
  }

  /** Creates a collection of the database unless it exists. */
  Map<String, Object> create(String collection) {
    boolean created = false;
    if (!exists(collection)) {
      try {
        database.createCollection(collection);
        created = true;
      } catch (MongoCommandException e) {
        if (e.getErrorCode() != NAMESPACE_EXISTS) {
          throw e;
        }
      }
    }
    Map<String, Object> details = details(collection);
    details.put("created", created);
    return details;
  }

  /**
   * Prepares YCSB's key-value collection (the {@code table} property) before a load: dropped when asked,
   * then created. Nothing geographic: no 2dsphere index, no shard key ({@code mongodb.shardkey} is the
   * geo collection's).
   */
  void prepareKeyValue(Preparable.Stage stage, Preparable.Steps steps, String collection) throws DBException {
    if (stage != Preparable.Stage.BEFORE_LOAD) {
      return;
    }
    if (settings.preparation().drop()) {
      steps.step("drop collection " + collection, () -> drop(collection));
    }
    steps.step("create collection " + collection, () -> create(collection));
  }

  Map<String, Object> shard() throws DBException {
    return shard(settings.collection(), settings.preparation().shardKey(), MongoSettings.SHARD_KEY);
  }

  /**
   * Shards a collection of the database on a key (idempotent: a collection already sharded on the
   * same key is left as it is), presplitting where the server allows.
   *
   * @param property the property that named the key, for messages
   */
  Map<String, Object> shard(String collectionName, ShardKey key, String property) throws DBException {
    String namespace = settings.connection().database() + "." + collectionName;
    if (!facts.sharded()) {
      throw new MongoStartException(CollectionChecks.notAMongos(property, key, settings, facts));
    }
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("namespace", namespace);
    details.put("server", facts.describe());
    details.put("key", key.toString());
    Document existing = CollectionChecks.shardingOf(client, namespace);
    if (existing != null) {
      Document stored = existing.get("key", Document.class);
      if (!key.matches(stored)) {
        throw new MongoStartException("Collection " + namespace + " is already sharded on "
            + (stored == null ? "another key" : stored.toJson()) + ", but " + property + " is '" + key
            + "': drop it first (" + MongoSettings.DROP + "=true) or set " + property + " to match.");
      }
      details.put("alreadySharded", true);
      details.put("chunksPerShard", TopologyReader.chunksPerShard(client, existing));
      return details;
    }
    MongoCollection<Document> collection = database.getCollection(collectionName);
    boolean empty = collection.estimatedDocumentCount() == 0;
    if (!empty) {
      // A collection with data needs an index that starts with the key before it can be sharded.
      collection.createIndex(key.toDocument());
    }
    shardCollection(namespace, key, empty, details);
    details.put("alreadySharded", false);
    Document sharding = CollectionChecks.shardingOf(client, namespace);
    if (sharding != null) {
      details.put("chunksPerShard", TopologyReader.chunksPerShard(client, sharding));
    }
    return details;
  }

  /**
   * The commands that shard a collection not sharded yet, through {@link AdminCommands}:
   * {@code enableSharding} always (it is idempotent, and whether shardCollection may skip it depends on
   * the FCV, 6.0+, not the binary: DOCS-15138), then {@code shardCollection} with the presplit the FCV
   * honours.
   */
  void shardCollection(String namespace, ShardKey key, boolean empty, Map<String, Object> details) {
    try {
      admin.run("admin", new Document("enableSharding", namespace.substring(0, namespace.indexOf('.'))));
    } catch (MongoCommandException e) {
      if (e.getErrorCode() != ALREADY_INITIALIZED) {
        throw e;
      }
    }
    details.put("enableSharding", "ran");
    Document command = new Document("shardCollection", namespace).append("key", key.toDocument());
    details.put("presplit", presplit(key, empty, command));
    admin.run("admin", command);
  }

  /** Says how the collection is presplit, adding {@code numInitialChunks} to the command where the server honours it. */
  String presplit(ShardKey key, boolean empty, Document command) {
    Integer wanted = settings.preparation().numInitialChunks();
    ServerVersion fcv = facts.featureVersion();
    boolean honoured = facts.rules().honoursNumInitialChunks();
    if (!key.hashed()) {
      return "none: a ranged key starts as one chunk on the primary shard, and the balancer moves ranges as data grows";
    }
    if (!key.hashedPrefix()) {
      return "none: a compound key whose first field is ranged starts as one chunk on the primary shard (presplitting "
          + "it needs zones and presplitHashedZones, which the binding does not set)";
    }
    if (!empty) {
      return "none: the collection already holds documents, so the server makes one chunk on the primary shard";
    }
    if (!honoured) {
      return "one chunk per shard, by the server (FCV " + fcv.major() + "." + fcv.minor() + ": 7.2+ ignores numInitialChunks"
          + (wanted == null ? ")" : ", so " + MongoSettings.NUM_INITIAL_CHUNKS + "=" + wanted + " was not sent)");
    }
    if (wanted != null) {
      command.append("numInitialChunks", wanted);
      return wanted + " chunks (" + MongoSettings.NUM_INITIAL_CHUNKS + ") spread over the shards by the server";
    }
    return "the server's default for a hashed key: 2 chunks per shard";
  }

  Map<String, Object> geoIndex() {
    MongoCollection<Document> collection = database.getCollection(settings.collection());
    Map<String, Object> details = details();
    details.put("key", CollectionChecks.GEO_INDEX_KEY.toJson());
    if (CollectionChecks.hasGeoIndex(collection.listIndexes().into(new ArrayList<>()))) {
      details.put("alreadyExisted", true);
      return details;
    }
    details.put("alreadyExisted", false);
    details.put("documents", collection.estimatedDocumentCount());
    IndexBuildWatcher watcher = new IndexBuildWatcher(client, settings.connection().database(), settings.collection(),
        settings.preparation().indexPoll(TimeUnit.MILLISECONDS));
    watcher.start();
    long start = System.nanoTime();
    Map<String, Object> perShard;
    try {
      // A request of its own deadline: a build over millions of documents takes minutes, not mongodb.timeout.ms.
      collection.withTimeout(settings.preparation().indexTimeout(TimeUnit.MILLISECONDS), TimeUnit.MILLISECONDS)
          .createIndex(CollectionChecks.GEO_INDEX_KEY);
    } finally {
      perShard = watcher.stop();
    }
    details.put("buildMs", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    if (facts.sharded()) {
      Map<String, Long> documents = tryDocumentsPerShard();
      if (documents != null) {
        details.put("documentsPerShard", documents);
      }
    }
    details.put("perShard", perShard);
    return details;
  }

  private Map<String, Long> tryDocumentsPerShard() {
    try {
      return TopologyReader.documentsPerShard(client, settings);
    } catch (RuntimeException e) {
      return null;
    }
  }

  private Map<String, Object> details() {
    return details(settings.collection());
  }

  private Map<String, Object> details(String collection) {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("namespace", settings.connection().database() + "." + collection);
    details.put("server", facts.describe());
    return details;
  }
}
