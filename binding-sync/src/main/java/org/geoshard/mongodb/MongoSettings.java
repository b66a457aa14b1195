package org.geoshard.mongodb;

import com.mongodb.ConnectionString;
import com.mongodb.ReadPreference;
import com.mongodb.WriteConcern;
import com.mongodb.event.CommandListener;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.config.PropertyReader;

/**
 * Every setting of the {@code mongodb-geo} binding, immutable: a composition of small values, in the
 * MongoDB driver's way ({@code MongoClientSettings} of {@code ConnectionPoolSettings}, ...): how to connect
 * ({@link #connection()}, which also keys the shared client), how to write ({@link #writes()}), how to
 * prepare the geo collection ({@link #preparation()}) and how to read ({@link #queries()}), with the geo
 * collection and YCSB's phase hint. Made by {@link #fromProperties} (the binding's way: one reader, one
 * pass) or a {@link Builder}; both check every value, each on its own and against the others, and report
 * every problem at once, each sentence naming the property at fault.
 *
 * <p>YCSB's names where YCSB's own mongodb binding has them ({@code mongodb.url},
 * {@code mongodb.writeConcern}, {@code mongodb.readPreference}, {@code mongodb.maxconnections},
 * {@code mongodb.upsert}, {@code batchsize}); the rest are geoshard's.
 */
public final class MongoSettings {
  public static final String URL = "mongodb.url";
  public static final String COLLECTION = "mongodb.collection";
  public static final String WRITE_CONCERN = "mongodb.writeConcern";
  public static final String READ_PREFERENCE = "mongodb.readPreference";
  public static final String SERVER_SELECTION_TIMEOUT = "mongodb.serverSelectionTimeout";
  public static final String TIMEOUT_MS = "mongodb.timeout.ms";
  /** How long the first contact of a phase waits for a server (not the requests of a run: those wait serverSelectionTimeout). */
  public static final String CONNECT_WAIT = "mongodb.connect.wait.s";
  public static final long DEFAULT_CONNECT_WAIT_SECONDS = 30;
  public static final String INDEX_TIMEOUT_MS = "mongodb.index.timeout.ms";
  public static final String MAX_CONNECTIONS = "mongodb.maxconnections";
  public static final String UPSERT = "mongodb.upsert";
  public static final String BATCH_SIZE = "batchsize";
  public static final String DROP = "mongodb.drop";
  public static final String SHARD_KEY = "mongodb.shardkey";
  public static final String NUM_INITIAL_CHUNKS = "mongodb.numInitialChunks";
  public static final String INDEX_WHEN = "mongodb.index.when";
  public static final String INDEX_POLL_MS = "mongodb.index.pollms";
  public static final String MAX_DISTANCE = "mongodb.maxdistance";
  /** Set by geoshard's harness: the most client threads of the phase (sizes the connection pool by default). */
  public static final String CLIENT_THREADS = org.geoshard.harness.run.RunSettings.CLIENT_THREADS;
  /** The driver's own pool size, used when nothing else says how many connections to keep. */
  public static final int DRIVER_DEFAULT_POOL_SIZE = 100;
  /** Set by YCSB's own client (true for run, false for load); geoshard's harness may set it too. */
  public static final String DO_TRANSACTIONS = "dotransactions";

  public static final String DEFAULT_URL = "mongodb://localhost:27017/ycsb";
  public static final String DEFAULT_DATABASE = "ycsb";
  public static final String DEFAULT_COLLECTION = "restaurants";
  /** The geo load's batch: 100 restaurants per insertMany unless {@code batchsize} says otherwise. */
  public static final int DEFAULT_GEO_BATCH_SIZE = 100;
  /** YCSB's operations insert one record at a time unless {@code batchsize} says otherwise (YCSB's default). */
  public static final int DEFAULT_YCSB_BATCH_SIZE = 1;
  public static final long DEFAULT_SERVER_SELECTION_TIMEOUT_SECONDS = 5;
  /** Every request's deadline (the driver's client-side operation timeout) unless said otherwise. */
  public static final long DEFAULT_TIMEOUT_MS = 30_000;
  /** The 2dsphere index build's deadline: a build over millions of documents takes minutes, not seconds. */
  public static final long DEFAULT_INDEX_TIMEOUT_MS = 7_200_000;
  public static final long DEFAULT_INDEX_POLL_MS = 250;
  public static final int MAX_BATCH_SIZE = 100_000;

  /** When the binding builds the 2dsphere index on {@code location}. */
  public enum IndexWhen {
    /** Before the load, on the empty collection: every insert maintains it. */
    BEFORE,
    /** After the load, on the loaded data (the study's choice): one build, timed per shard. */
    AFTER
  }

  /**
   * What the near query sends as {@code $maxDistance} ({@code mongodb.maxdistance}).
   */
  public enum MaxDistance {
    /**
     * The integer metres the workload drew, as the study's client sent them ({@code randint(5000, 50000)}).
     * MongoDB measures them on its 6,378.1 km sphere, so the cap is 0.11% narrower in angle than the
     * workload's 6,371 km radius: restaurants within the last 0.11% of the radius may be left out.
     */
    DRAWN,
    /**
     * The drawn metres × 6,378.1 / 6,371 (5,005.572 for 5,000): the server then selects exactly the
     * restaurants within the drawn radius on the workload's sphere, which the haversine oracle tests and
     * the PostGIS binding use; for comparing stores answer for answer.
     */
    SCALED
  }

  /** YCSB's write concern names, and what they mean. */
  private enum YcsbWriteConcern {
    ERRORS_IGNORED(WriteConcern.UNACKNOWLEDGED),
    UNACKNOWLEDGED(WriteConcern.UNACKNOWLEDGED),
    ACKNOWLEDGED(WriteConcern.W1),
    JOURNALED(WriteConcern.W1.withJournal(true)),
    REPLICA_ACKNOWLEDGED(WriteConcern.W2),
    MAJORITY(WriteConcern.MAJORITY);

    private final WriteConcern concern;

    YcsbWriteConcern(WriteConcern concern) {
      this.concern = concern;
    }
  }

  /** Read preferences by YCSB's names ({@code primary_preferred} and {@code primaryPreferred} both work). */
  private enum ReadPreferenceName {
    PRIMARY, PRIMARY_PREFERRED, SECONDARY, SECONDARY_PREFERRED, NEAREST;

    ReadPreference preference() {
      return switch (this) {
        case PRIMARY -> ReadPreference.primary();
        case PRIMARY_PREFERRED -> ReadPreference.primaryPreferred();
        case SECONDARY -> ReadPreference.secondary();
        case SECONDARY_PREFERRED -> ReadPreference.secondaryPreferred();
        case NEAREST -> ReadPreference.nearest();
      };
    }
  }

  private final MongoConnectionSettings connection;
  private final MongoWriteSettings writes;
  private final MongoPreparationSettings preparation;
  private final MongoQuerySettings queries;
  private final String collection;
  private final Boolean doTransactions;

  public static Builder builder() {
    return new Builder();
  }

  /** A builder; every value starts at its documented default. */
  public static final class Builder {
    private final MongoConnectionSettings.Builder connection = MongoConnectionSettings.builder();
    private final MongoWriteSettings.Builder writes = MongoWriteSettings.builder();
    private final MongoPreparationSettings.Builder preparation = MongoPreparationSettings.builder();
    private final MongoQuerySettings.Builder queries = MongoQuerySettings.builder();
    private String collection = DEFAULT_COLLECTION;
    private Boolean doTransactions;

    private Builder() {
    }

    /** Sets how to connect (the URL, timeouts, pool, listeners). */
    public Builder applyToConnection(Consumer<MongoConnectionSettings.Builder> block) {
      block.accept(connection);
      return this;
    }

    /** Sets how to write (write concern, batches, upserts). */
    public Builder applyToWrites(Consumer<MongoWriteSettings.Builder> block) {
      block.accept(writes);
      return this;
    }

    /** Sets how the geo collection is prepared (drop, shard key, index). */
    public Builder applyToPreparation(Consumer<MongoPreparationSettings.Builder> block) {
      block.accept(preparation);
      return this;
    }

    /** Sets how to read (read preference, the near query's distance). */
    public Builder applyToQueries(Consumer<MongoQuerySettings.Builder> block) {
      block.accept(queries);
      return this;
    }

    /** The geo contract's collection; default {@value #DEFAULT_COLLECTION}. YCSB's operations use the table. */
    public Builder collection(String collection) {
      this.collection = collection;
      return this;
    }

    /** YCSB's phase hint: true in a run, false in a load, null when unknown (the default). */
    public Builder doTransactions(Boolean doTransactions) {
      this.doTransactions = doTransactions;
      return this;
    }

    /**
     * @throws ConfigException listing every problem, one sentence each, naming the property
     */
    public MongoSettings build() throws ConfigException {
      List<String> problems = new ArrayList<>();
      MongoSettings settings = build(problems);
      if (!problems.isEmpty()) {
        throw new ConfigException(problems);
      }
      return settings;
    }

    /** The settings, each problem added to {@code problems}: with problems, the settings must not be used. */
    private MongoSettings build(List<String> problems) {
      MongoConnectionSettings c = connection.build(problems);
      if (collection == null || collection.isBlank() || collection.contains("$") || collection.startsWith("system.")) {
        problems.add("Property '" + COLLECTION + "' must be a collection name (not empty, no '$', not system.*), but is '"
            + collection + "'.");
      }
      MongoWriteSettings w = writes.build(problems);
      MongoPreparationSettings p = preparation.build(problems);
      MongoQuerySettings q = queries.build(problems);
      disagreements(c, w, p, q, problems);
      return new MongoSettings(c, w, p, q, collection, doTransactions);
    }
  }

  /** What one value says against another: the URL against the properties, deadlines, a shard key on a standalone. */
  private static void disagreements(MongoConnectionSettings c, MongoWriteSettings w, MongoPreparationSettings p,
                                    MongoQuerySettings q, List<String> problems) {
    ConnectionString cs = c.connectionString();
    if (cs != null && w.writeConcern() != null && cs.getWriteConcern() != null && !cs.getWriteConcern().equals(w.writeConcern())) {
      problems.add("Property '" + WRITE_CONCERN + "' (" + describe(w.writeConcern()) + ") disagrees with the write concern of '"
          + URL + "' (" + describe(cs.getWriteConcern()) + "); set it in one place.");
    }
    if (cs != null && q.readPreference() != null && cs.getReadPreference() != null
        && !cs.getReadPreference().equals(q.readPreference())) {
      problems.add("Property '" + READ_PREFERENCE + "' (" + q.readPreference().getName() + ") disagrees with the readPreference of '"
          + URL + "' (" + cs.getReadPreference().getName() + "); set it in one place.");
    }
    String beyondIndex = c.selectionBeyond(INDEX_TIMEOUT_MS, p.indexTimeout(TimeUnit.MILLISECONDS),
        "the index build's deadline");
    if (beyondIndex != null) {
      problems.add(beyondIndex);
    }
    ThrowawaySpec spec = c.throwaway();
    if (p.shardKey() != null && spec != null && spec.shards() == 0) {
      problems.add("Property '" + SHARD_KEY + "' is '" + p.shardKey() + "', but '" + URL + "' is " + spec.url()
          + ", a standalone server; use testcontainers:2s or :3s for a sharded cluster.");
    }
  }

  private MongoSettings(MongoConnectionSettings connection, MongoWriteSettings writes, MongoPreparationSettings preparation,
                        MongoQuerySettings queries, String collection, Boolean doTransactions) {
    this.connection = connection;
    this.writes = writes;
    this.preparation = preparation;
    this.queries = queries;
    this.collection = collection;
    this.doTransactions = doTransactions;
  }

  /**
   * The binding's settings from YCSB-style properties.
   *
   * @throws ConfigException every malformed or contradictory property, one sentence each
   */
  public static MongoSettings fromProperties(Properties properties) throws ConfigException {
    return fromProperties(properties, List.of());
  }

  /**
   * As {@link #fromProperties(Properties)}, with listeners on every command of the client. One reader, one
   * pass: the malformed values first, then what the values say against each other.
   */
  public static MongoSettings fromProperties(Properties properties, List<CommandListener> listeners)
      throws ConfigException {
    PropertyReader in = new PropertyReader(properties);
    List<String> problems = new ArrayList<>();
    Builder b = builder();
    MongoConnectionSettings.Builder c = b.connection;
    MongoWriteSettings.Builder w = b.writes;
    MongoPreparationSettings.Builder p = b.preparation;
    MongoQuerySettings.Builder q = b.queries;
    c.url(in.string(URL, DEFAULT_URL));
    b.collection(in.string(COLLECTION, DEFAULT_COLLECTION));
    p.indexTimeout(in.longAtLeast(INDEX_TIMEOUT_MS, DEFAULT_INDEX_TIMEOUT_MS, 1), TimeUnit.MILLISECONDS);
    c.connectWait(in.longAtLeast(CONNECT_WAIT, DEFAULT_CONNECT_WAIT_SECONDS, 1), TimeUnit.SECONDS);
    w.upsert(in.bool(UPSERT, false));
    p.drop(in.bool(DROP, false))
        .indexWhen(in.choice(INDEX_WHEN, IndexWhen.AFTER, IndexWhen.class))
        .indexPoll(in.longAtLeast(INDEX_POLL_MS, DEFAULT_INDEX_POLL_MS, 10), TimeUnit.MILLISECONDS);
    q.maxDistance(in.choice(MAX_DISTANCE, MaxDistance.DRAWN, MaxDistance.class));
    if (in.isSet(SERVER_SELECTION_TIMEOUT)) {
      c.serverSelectionTimeout(in.longAtLeast(SERVER_SELECTION_TIMEOUT, DEFAULT_SERVER_SELECTION_TIMEOUT_SECONDS, 1),
          TimeUnit.SECONDS);
    }
    if (in.isSet(TIMEOUT_MS)) {
      c.timeout(in.longAtLeast(TIMEOUT_MS, DEFAULT_TIMEOUT_MS, 1), TimeUnit.MILLISECONDS);
    }
    if (in.isSet(MAX_CONNECTIONS)) {
      c.maxConnections(in.intInRange(MAX_CONNECTIONS, 100, 1, 100_000));
    }
    if (in.isSet(CLIENT_THREADS)) {
      c.clientThreads(in.intInRange(CLIENT_THREADS, 1, 1, 1_000_000));
    }
    if (in.isSet(BATCH_SIZE)) {
      w.batchSize(in.intInRange(BATCH_SIZE, DEFAULT_GEO_BATCH_SIZE, 1, MAX_BATCH_SIZE));
    }
    if (in.isSet(NUM_INITIAL_CHUNKS)) {
      p.numInitialChunks(in.intInRange(NUM_INITIAL_CHUNKS, 1, 1, 8192 * 1000));
    }
    if (in.isSet(DO_TRANSACTIONS)) {
      b.doTransactions(in.bool(DO_TRANSACTIONS, true));
    }
    String concern = in.raw(WRITE_CONCERN);
    if (concern != null) {
      w.writeConcern(parseWriteConcern(concern, problems));
    }
    if (in.isSet(READ_PREFERENCE)) {
      q.readPreference(in.choice(READ_PREFERENCE, ReadPreferenceName.PRIMARY, ReadPreferenceName.class).preference());
    }
    String key = in.raw(SHARD_KEY);
    if (key != null) {
      p.shardKey(ShardKey.parse(SHARD_KEY, key, problems));
    }
    listeners.forEach(c::addCommandListener);
    problems.addAll(0, in.problems());
    MongoSettings settings = b.build(problems);
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
    return settings;
  }

  /** {@code majority}, {@code journaled}, ... (YCSB's names) or a number of members. */
  static WriteConcern parseWriteConcern(String value, List<String> problems) {
    String squashed = value.trim().toUpperCase(Locale.ROOT).replace('-', '_');
    for (YcsbWriteConcern known : YcsbWriteConcern.values()) {
      if (known.name().equals(squashed) || known.name().replace("_", "").equals(squashed.replace("_", ""))) {
        return known.concern;
      }
    }
    try {
      int w = Integer.parseInt(value.trim());
      if (w >= 0 && w <= 50) {
        return new WriteConcern(w);
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    problems.add("Property '" + WRITE_CONCERN + "' must be one of acknowledged, unacknowledged, journaled, "
        + "replica_acknowledged, majority, or a number of members from 0 to 50, but is '" + value + "'.");
    return null;
  }

  static String describe(WriteConcern concern) {
    StringBuilder out = new StringBuilder();
    Object w = concern.getWObject();
    out.append("w=").append(w == null ? "default" : w);
    if (concern.getJournal() != null) {
      out.append(", j=").append(concern.getJournal());
    }
    return out.toString();
  }

  /** How to connect; equal connection settings share one client ({@link SharedClients}). */
  public MongoConnectionSettings connection() {
    return connection;
  }

  /** How to write. */
  public MongoWriteSettings writes() {
    return writes;
  }

  /** How the geo collection is prepared. */
  public MongoPreparationSettings preparation() {
    return preparation;
  }

  /** How to read. */
  public MongoQuerySettings queries() {
    return queries;
  }

  /** The geo contract's collection ({@code mongodb.collection}). */
  public String collection() {
    return collection;
  }

  /** {@code database.collection}. */
  public String namespace() {
    return connection.database() + "." + collection;
  }

  /** YCSB's phase hint, or null when nobody said. */
  public Boolean doTransactions() {
    return doTransactions;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MongoSettings other && connection.equals(other.connection) && writes.equals(other.writes)
        && preparation.equals(other.preparation) && queries.equals(other.queries) && collection.equals(other.collection)
        && Objects.equals(doTransactions, other.doTransactions);
  }

  @Override
  public int hashCode() {
    return Objects.hash(connection, writes, preparation, queries, collection, doTransactions);
  }

  @Override
  public String toString() {
    return "MongoSettings{url=" + connection.maskedUrl() + ", database=" + connection.database() + ", collection=" + collection
        + ", writeConcern=" + (writes.writeConcern() == null ? "from URL" : describe(writes.writeConcern()))
        + ", readPreference=" + (queries.readPreference() == null ? "from URL" : queries.readPreference().getName())
        + ", serverSelectionTimeoutMs=" + connection.serverSelectionTimeout(TimeUnit.MILLISECONDS)
        + ", timeoutMs=" + connection.timeout(TimeUnit.MILLISECONDS) + ", maxConnections=" + connection.maxConnections()
        + ", poolSize=" + connection.poolSize() + " (" + connection.poolSource() + ")"
        + ", geoBatchSize=" + writes.geoBatchSize() + ", ycsbBatchSize=" + writes.ycsbBatchSize() + ", upsert=" + writes.upsert()
        + ", drop=" + preparation.drop() + ", shardKey=" + preparation.shardKey() + ", numInitialChunks="
        + preparation.numInitialChunks() + ", indexWhen=" + preparation.indexWhen() + ", indexPollMs="
        + preparation.indexPoll(TimeUnit.MILLISECONDS) + ", maxDistance=" + queries.maxDistance() + "}";
  }
}
