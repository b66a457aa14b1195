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
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.config.PropertyReader;
import org.geoshard.harness.api.Secrets;

/**
 * Every setting of the {@code mongodb-geo} binding, immutable. Made by {@link #fromProperties} (the
 * binding's way) or a {@link Builder}; both end in one constructor that checks everything and reports
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

  private final String url;
  private final ConnectionString connectionString;
  private final ThrowawaySpec throwaway;
  private final String database;
  private final String collection;
  private final WriteConcern writeConcern;
  private final ReadPreference readPreference;
  private final long serverSelectionTimeoutMs;
  private final long timeoutMs;
  private final long indexTimeoutMs;
  private final long connectWaitMs;
  private final Integer maxConnections;
  private final Integer clientThreads;
  private final int poolSize;
  private final String poolSource;
  private final int geoBatchSize;
  private final int ycsbBatchSize;
  private final boolean upsert;
  private final boolean drop;
  private final ShardKey shardKey;
  private final Integer numInitialChunks;
  private final IndexWhen indexWhen;
  private final long indexPollMs;
  private final MaxDistance maxDistance;
  private final Boolean doTransactions;
  private final List<CommandListener> commandListeners;

  public static Builder builder() {
    return new Builder();
  }

  /** A builder; every value starts at its documented default. */
  public static final class Builder {
    private String url = DEFAULT_URL;
    private String collection = DEFAULT_COLLECTION;
    private WriteConcern writeConcern;
    private ReadPreference readPreference;
    /** Null: the URL's serverSelectionTimeoutMS, else the default. */
    private Long serverSelectionTimeoutMs;
    /** Null: the URL's timeoutMS, else the default. */
    private Long timeoutMs;
    private long indexTimeoutMs = DEFAULT_INDEX_TIMEOUT_MS;
    private long connectWaitMs = TimeUnit.SECONDS.toMillis(DEFAULT_CONNECT_WAIT_SECONDS);
    private Integer maxConnections;
    private Integer clientThreads;
    private Integer batchSize;
    private boolean upsert;
    private boolean drop;
    private ShardKey shardKey;
    private Integer numInitialChunks;
    private IndexWhen indexWhen = IndexWhen.AFTER;
    private long indexPollMs = DEFAULT_INDEX_POLL_MS;
    private MaxDistance maxDistance = MaxDistance.DRAWN;
    private Boolean doTransactions;
    private final List<CommandListener> commandListeners = new ArrayList<>();

    private Builder() {
    }

    /** {@code mongodb://}, {@code mongodb+srv://} or {@code testcontainers:Ns}; default {@value #DEFAULT_URL}. */
    public Builder url(String url) {
      this.url = url;
      return this;
    }

    /** The geo contract's collection; default {@value #DEFAULT_COLLECTION}. YCSB's operations use the table. */
    public Builder collection(String collection) {
      this.collection = collection;
      return this;
    }

    /** Null (the default) takes the URL's write concern, or the server's. */
    public Builder writeConcern(WriteConcern writeConcern) {
      this.writeConcern = writeConcern;
      return this;
    }

    /** Null (the default) takes the URL's read preference, or primary. */
    public Builder readPreference(ReadPreference readPreference) {
      this.readPreference = readPreference;
      return this;
    }

    /**
     * How long to wait for a server before failing; at least 1 s, and not longer than {@link #timeout} (the
     * driver's deadline bounds server selection too: a longer one is refused, never cut silently). Unset (the
     * default): the URL's {@code serverSelectionTimeoutMS}, else 5 s (bounded by the deadline when that is shorter).
     */
    public Builder serverSelectionTimeout(long timeout, TimeUnit unit) {
      this.serverSelectionTimeoutMs = unit.toMillis(timeout);
      return this;
    }

    /**
     * Every request's deadline (the driver's client-side operation timeout: server selection,
     * connection, the wait for the answer and the cursor's batches); at least 1 ms. Unset (the default):
     * the URL's {@code timeoutMS}, else 30 s.
     */
    public Builder timeout(long timeout, TimeUnit unit) {
      this.timeoutMs = unit.toMillis(timeout);
      return this;
    }

    /** The deadline of the 2dsphere index build (a request of its own); default 2 hours, at least 1 ms. */
    public Builder indexTimeout(long timeout, TimeUnit unit) {
      this.indexTimeoutMs = unit.toMillis(timeout);
      return this;
    }

    /**
     * How long the first contact with the server waits before the phase fails; default 30 s, at least
     * 1 s. A run's requests wait {@link #serverSelectionTimeout} instead.
     */
    public Builder connectWait(long wait, TimeUnit unit) {
      this.connectWaitMs = unit.toMillis(wait);
      return this;
    }

    /** Connections per server; null (the default) takes the URL's maxPoolSize, or the driver's 100. */
    public Builder maxConnections(Integer maxConnections) {
      this.maxConnections = maxConnections;
      return this;
    }

    /**
     * The most client threads that share the client (the harness's {@code clientthreads}); null (the
     * default) when unknown. Sizes the connection pool when neither {@code mongodb.maxconnections} nor the
     * URL's {@code maxPoolSize} does: one connection per thread, as the study's one process per client.
     */
    public Builder clientThreads(Integer clientThreads) {
      this.clientThreads = clientThreads;
      return this;
    }

    /** Documents per insertMany; null (the default) is 100 for the geo load and 1 for YCSB's insert. */
    public Builder batchSize(Integer batchSize) {
      this.batchSize = batchSize;
      return this;
    }

    /** YCSB's inserts as upserts (replace by {@code _id}); default false. */
    public Builder upsert(boolean upsert) {
      this.upsert = upsert;
      return this;
    }

    /** Drop the geo collection before the load; default false. */
    public Builder drop(boolean drop) {
      this.drop = drop;
      return this;
    }

    /** Null (the default) leaves the collection unsharded. */
    public Builder shardKey(ShardKey shardKey) {
      this.shardKey = shardKey;
      return this;
    }

    /** Initial chunks of a hashed key on an empty collection (honoured before MongoDB 7.2); null is the server's default. */
    public Builder numInitialChunks(Integer numInitialChunks) {
      this.numInitialChunks = numInitialChunks;
      return this;
    }

    /** Default {@link IndexWhen#AFTER}. */
    public Builder indexWhen(IndexWhen indexWhen) {
      this.indexWhen = indexWhen;
      return this;
    }

    /** How often the index build is sampled per shard; default 250 ms, from 10 ms to 10 s. */
    public Builder indexPoll(long interval, TimeUnit unit) {
      this.indexPollMs = unit.toMillis(interval);
      return this;
    }

    /** What {@code $maxDistance} carries; default {@link MaxDistance#DRAWN}, as the study sent it. */
    public Builder maxDistance(MaxDistance maxDistance) {
      this.maxDistance = maxDistance;
      return this;
    }

    /** YCSB's phase hint: true in a run, false in a load, null when unknown (the default). */
    public Builder doTransactions(Boolean doTransactions) {
      this.doTransactions = doTransactions;
      return this;
    }

    /** Listens to every command of the client (in addition to the binding's own counters). */
    public Builder addCommandListener(CommandListener listener) {
      this.commandListeners.add(Objects.requireNonNull(listener, "listener"));
      return this;
    }

    /**
     * @throws ConfigException listing every problem, one sentence each, naming the property
     */
    public MongoSettings build() throws ConfigException {
      return new MongoSettings(this);
    }
  }

  /** The longest application name the driver sends in its handshake (UTF-8 bytes). */
  static final int MAX_APP_NAME_BYTES = 128;

  private MongoSettings(Builder b) throws ConfigException {
    List<String> problems = new ArrayList<>();
    String givenUrl = b.url == null || b.url.isBlank() ? DEFAULT_URL : b.url.trim();
    ConnectionString cs = null;
    ThrowawaySpec spec = null;
    String db = DEFAULT_DATABASE;
    if (ThrowawaySpec.isThrowaway(givenUrl)) {
      spec = ThrowawaySpec.parse(URL, givenUrl, problems);
    } else if (!givenUrl.startsWith("mongodb://") && !givenUrl.startsWith("mongodb+srv://")) {
      problems.add("Property '" + URL + "' must be a mongodb:// or mongodb+srv:// connection string, or testcontainers:3s "
          + "for a throwaway cluster, but is '" + Secrets.maskText(givenUrl) + "'.");
    } else {
      try {
        cs = new ConnectionString(givenUrl);
        String pathDb = cs.getDatabase();
        // As YCSB's binding: the URL's database, unless it is absent or 'admin' (then only the authentication source).
        db = pathDb == null || pathDb.isEmpty() || pathDb.equals("admin") ? DEFAULT_DATABASE : pathDb;
        String appName = cs.getApplicationName();
        int appNameBytes = appName == null ? 0 : appName.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        if (appNameBytes > MAX_APP_NAME_BYTES) {
          // The driver refuses it only when the client is made, in its own words: said here, before anything runs.
          problems.add("Property '" + URL + "': appName is " + appNameBytes + " bytes long; MongoDB allows at most "
              + MAX_APP_NAME_BYTES + " (UTF-8).");
        }
      } catch (IllegalArgumentException e) {
        problems.add("Property '" + URL + "' is not a valid connection string ('" + Secrets.maskText(givenUrl) + "'): "
            + Secrets.maskText(e.getMessage()));
      }
    }
    if (b.collection == null || b.collection.isBlank() || b.collection.contains("$") || b.collection.startsWith("system.")) {
      problems.add("Property '" + COLLECTION + "' must be a collection name (not empty, no '$', not system.*), but is '"
          + b.collection + "'.");
    }
    if (cs != null && b.writeConcern != null && cs.getWriteConcern() != null && !cs.getWriteConcern().equals(b.writeConcern)) {
      problems.add("Property '" + WRITE_CONCERN + "' (" + describe(b.writeConcern) + ") disagrees with the write concern of '"
          + URL + "' (" + describe(cs.getWriteConcern()) + "); set it in one place.");
    }
    if (cs != null && b.readPreference != null && cs.getReadPreference() != null
        && !cs.getReadPreference().equals(b.readPreference)) {
      problems.add("Property '" + READ_PREFERENCE + "' (" + b.readPreference.getName() + ") disagrees with the readPreference of '"
          + URL + "' (" + cs.getReadPreference().getName() + "); set it in one place.");
    }
    if (b.connectWaitMs < 1000) {
      problems.add("Property '" + CONNECT_WAIT + "' must be at least 1 second, but is " + b.connectWaitMs + " ms.");
    }
    if (b.serverSelectionTimeoutMs != null && b.serverSelectionTimeoutMs < 1000) {
      problems.add("Property '" + SERVER_SELECTION_TIMEOUT + "' must be at least 1 second, but is "
          + b.serverSelectionTimeoutMs + " ms.");
    }
    Integer urlSelection = cs == null ? null : cs.getServerSelectionTimeout();
    if (urlSelection != null && b.serverSelectionTimeoutMs != null && urlSelection.longValue() != b.serverSelectionTimeoutMs) {
      problems.add("Property '" + SERVER_SELECTION_TIMEOUT + "' (" + b.serverSelectionTimeoutMs
          + " ms) disagrees with serverSelectionTimeoutMS=" + urlSelection + " in '" + URL + "'; set it in one place.");
    }
    if (b.timeoutMs != null && b.timeoutMs < 1) {
      problems.add("Property '" + TIMEOUT_MS + "' must be at least 1 (milliseconds), but is " + b.timeoutMs + ".");
    }
    Long urlTimeout = cs == null ? null : cs.getTimeout();
    if (urlTimeout != null && urlTimeout == 0) {
      problems.add("'" + URL + "' sets timeoutMS=0 (no deadline), but every request needs one: remove it and set "
          + TIMEOUT_MS + ".");
    }
    if (urlTimeout != null && b.timeoutMs != null && !urlTimeout.equals(b.timeoutMs)) {
      problems.add("Property '" + TIMEOUT_MS + "' (" + b.timeoutMs + ") disagrees with timeoutMS=" + urlTimeout + " in '"
          + URL + "'; set it in one place.");
    }
    if (b.indexTimeoutMs < 1) {
      problems.add("Property '" + INDEX_TIMEOUT_MS + "' must be at least 1 (milliseconds), but is " + b.indexTimeoutMs + ".");
    }
    // The deadline requests get: the URL's, else the property, else the default.
    long timeout = urlTimeout != null ? urlTimeout : b.timeoutMs != null ? b.timeoutMs : DEFAULT_TIMEOUT_MS;
    selectionBeyondDeadlines(b, urlSelection, urlTimeout, timeout, problems);
    if (b.maxConnections != null && b.maxConnections < 1) {
      problems.add("Property '" + MAX_CONNECTIONS + "' must be at least 1, but is " + b.maxConnections + ".");
    }
    if (b.clientThreads != null && b.clientThreads < 1) {
      problems.add("Property '" + CLIENT_THREADS + "' must be at least 1, but is " + b.clientThreads + ".");
    }
    if (b.batchSize != null && (b.batchSize < 1 || b.batchSize > MAX_BATCH_SIZE)) {
      problems.add("Property '" + BATCH_SIZE + "' must be from 1 to " + MAX_BATCH_SIZE + ", but is " + b.batchSize + ".");
    }
    if (b.numInitialChunks != null) {
      if (b.numInitialChunks < 1) {
        problems.add("Property '" + NUM_INITIAL_CHUNKS + "' must be at least 1, but is " + b.numInitialChunks + ".");
      } else if (b.shardKey == null || !b.shardKey.hashed()) {
        problems.add("Property '" + NUM_INITIAL_CHUNKS + "' applies only to a hashed shard key, but '" + SHARD_KEY + "' is "
            + (b.shardKey == null ? "not set" : "'" + b.shardKey + "'") + ".");
      } else if (!b.shardKey.hashedPrefix()) {
        problems.add("Property '" + NUM_INITIAL_CHUNKS + "' cannot be used with '" + SHARD_KEY + "' = '" + b.shardKey
            + "': its first field is ranged, and servers before 7.2 reject numInitialChunks for such a key (it needs "
            + "zones and presplitHashedZones); without it the collection starts as one chunk on the primary shard.");
      }
    }
    if (b.shardKey != null && spec != null && spec.shards() == 0) {
      problems.add("Property '" + SHARD_KEY + "' is '" + b.shardKey + "', but '" + URL + "' is " + spec.url()
          + ", a standalone server; use testcontainers:2s or :3s for a sharded cluster.");
    }
    if (b.indexWhen == null) {
      problems.add("Property '" + INDEX_WHEN + "' must be before or after.");
    }
    if (b.maxDistance == null) {
      problems.add("Property '" + MAX_DISTANCE + "' must be drawn or scaled.");
    }
    if (b.indexPollMs < 10 || b.indexPollMs > 10_000) {
      problems.add("Property '" + INDEX_POLL_MS + "' must be from 10 to 10000 (milliseconds), but is " + b.indexPollMs + ".");
    }
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
    this.url = givenUrl;
    this.connectionString = cs;
    this.throwaway = spec;
    this.database = db;
    this.collection = b.collection;
    this.writeConcern = b.writeConcern;
    this.readPreference = b.readPreference;
    // What the URL says wins over the defaults (a value given both ways must agree, checked above).
    this.serverSelectionTimeoutMs = urlSelection != null ? urlSelection
        : b.serverSelectionTimeoutMs != null ? b.serverSelectionTimeoutMs
        : TimeUnit.SECONDS.toMillis(DEFAULT_SERVER_SELECTION_TIMEOUT_SECONDS);
    this.timeoutMs = timeout;
    this.indexTimeoutMs = b.indexTimeoutMs;
    this.connectWaitMs = b.connectWaitMs;
    this.maxConnections = b.maxConnections;
    this.clientThreads = b.clientThreads;
    Integer urlPool = cs == null ? null : cs.getMaxConnectionPoolSize();
    // What the user said wins; else one connection per client thread; else the driver's default.
    if (b.maxConnections != null) {
      this.poolSize = b.maxConnections;
      this.poolSource = MAX_CONNECTIONS;
    } else if (urlPool != null) {  // 0: no limit, as the driver reads it
      this.poolSize = urlPool;
      this.poolSource = "maxPoolSize in " + URL;
    } else if (b.clientThreads != null) {
      this.poolSize = b.clientThreads;
      this.poolSource = CLIENT_THREADS;
    } else {
      this.poolSize = DRIVER_DEFAULT_POOL_SIZE;
      this.poolSource = "driver default";
    }
    this.geoBatchSize = b.batchSize == null ? DEFAULT_GEO_BATCH_SIZE : b.batchSize;
    this.ycsbBatchSize = b.batchSize == null ? DEFAULT_YCSB_BATCH_SIZE : b.batchSize;
    this.upsert = b.upsert;
    this.drop = b.drop;
    this.shardKey = b.shardKey;
    this.numInitialChunks = b.numInitialChunks;
    this.indexWhen = b.indexWhen;
    this.indexPollMs = b.indexPollMs;
    this.maxDistance = b.maxDistance;
    this.doTransactions = b.doTransactions;
    this.commandListeners = List.copyOf(b.commandListeners);
  }

  /**
   * Refuses a server selection timeout the user gave (property or URL) that is longer than a request's
   * deadline: the driver's timeoutMS bounds server selection too, so it would silently wait the deadline,
   * not the time asked for (pinned by ClientOptionsTest). Refused rather than the deadline raised, because
   * the deadline decides which requests count as errors: the benchmark keeps the one the user set. The
   * 5 s default is not checked: nobody asked for it, and the README says the deadline bounds it.
   */
  private static void selectionBeyondDeadlines(Builder b, Integer urlSelection, Long urlTimeout, long timeout,
                                               List<String> problems) {
    Long selection = urlSelection != null ? Long.valueOf(urlSelection) : b.serverSelectionTimeoutMs;
    if (selection == null) {
      return;
    }
    String selectionSource = urlSelection != null ? "serverSelectionTimeoutMS=" + urlSelection + " in '" + URL + "'"
        : "Property '" + SERVER_SELECTION_TIMEOUT + "' (" + selection + " ms)";
    String timeoutSource = urlTimeout != null ? "timeoutMS=" + urlTimeout + " in '" + URL + "'"
        : "'" + TIMEOUT_MS + "' (" + timeout + " ms" + (b.timeoutMs == null ? ", the default" : "") + ")";
    // A deadline below 1 ms (timeoutMS=0, none) is refused on its own above; no second sentence about it.
    if (timeout >= 1 && selection > timeout) {
      problems.add(selectionSource + " is longer than " + timeoutSource + ", every request's deadline, which bounds "
          + "its server selection too: a request would give up after " + timeout + " ms, not " + selection
          + " ms. Raise " + (urlTimeout != null ? "timeoutMS" : TIMEOUT_MS) + " to at least " + selection
          + " or lower the server selection timeout to at most " + timeout + " ms.");
    }
    if (b.indexTimeoutMs >= 1 && selection > b.indexTimeoutMs) {
      problems.add(selectionSource + " is longer than '" + INDEX_TIMEOUT_MS + "' (" + b.indexTimeoutMs + " ms), the "
          + "index build's deadline, which bounds its server selection too. Raise " + INDEX_TIMEOUT_MS + " to at least "
          + selection + " or lower the server selection timeout to at most " + b.indexTimeoutMs + " ms.");
    }
  }

  /**
   * The binding's settings from YCSB-style properties.
   *
   * @throws ConfigException every malformed or contradictory property, one sentence each
   */
  public static MongoSettings fromProperties(Properties properties) throws ConfigException {
    return fromProperties(properties, List.of());
  }

  /** As {@link #fromProperties(Properties)}, with listeners on every command of the client. */
  public static MongoSettings fromProperties(Properties properties, List<CommandListener> listeners)
      throws ConfigException {
    PropertyReader in = new PropertyReader(properties);
    List<String> problems = new ArrayList<>();
    Builder b = builder()
        .url(in.string(URL, DEFAULT_URL))
        .collection(in.string(COLLECTION, DEFAULT_COLLECTION))
        .indexTimeout(in.longAtLeast(INDEX_TIMEOUT_MS, DEFAULT_INDEX_TIMEOUT_MS, 1), TimeUnit.MILLISECONDS)
        .connectWait(in.longAtLeast(CONNECT_WAIT, DEFAULT_CONNECT_WAIT_SECONDS, 1), TimeUnit.SECONDS)
        .upsert(in.bool(UPSERT, false))
        .drop(in.bool(DROP, false))
        .indexWhen(in.choice(INDEX_WHEN, IndexWhen.AFTER, IndexWhen.class))
        .indexPoll(in.longAtLeast(INDEX_POLL_MS, DEFAULT_INDEX_POLL_MS, 10), TimeUnit.MILLISECONDS)
        .maxDistance(in.choice(MAX_DISTANCE, MaxDistance.DRAWN, MaxDistance.class));
    if (in.isSet(SERVER_SELECTION_TIMEOUT)) {
      b.serverSelectionTimeout(in.longAtLeast(SERVER_SELECTION_TIMEOUT, DEFAULT_SERVER_SELECTION_TIMEOUT_SECONDS, 1),
          TimeUnit.SECONDS);
    }
    if (in.isSet(TIMEOUT_MS)) {
      b.timeout(in.longAtLeast(TIMEOUT_MS, DEFAULT_TIMEOUT_MS, 1), TimeUnit.MILLISECONDS);
    }
    if (in.isSet(MAX_CONNECTIONS)) {
      b.maxConnections(in.intInRange(MAX_CONNECTIONS, 100, 1, 100_000));
    }
    if (in.isSet(CLIENT_THREADS)) {
      b.clientThreads(in.intInRange(CLIENT_THREADS, 1, 1, 1_000_000));
    }
    if (in.isSet(BATCH_SIZE)) {
      b.batchSize(in.intInRange(BATCH_SIZE, DEFAULT_GEO_BATCH_SIZE, 1, MAX_BATCH_SIZE));
    }
    if (in.isSet(NUM_INITIAL_CHUNKS)) {
      b.numInitialChunks(in.intInRange(NUM_INITIAL_CHUNKS, 1, 1, 8192 * 1000));
    }
    if (in.isSet(DO_TRANSACTIONS)) {
      b.doTransactions(in.bool(DO_TRANSACTIONS, true));
    }
    String concern = in.raw(WRITE_CONCERN);
    if (concern != null) {
      b.writeConcern(parseWriteConcern(concern, problems));
    }
    if (in.isSet(READ_PREFERENCE)) {
      b.readPreference(in.choice(READ_PREFERENCE, ReadPreferenceName.PRIMARY, ReadPreferenceName.class).preference());
    }
    String key = in.raw(SHARD_KEY);
    if (key != null) {
      b.shardKey(ShardKey.parse(SHARD_KEY, key, problems));
    }
    listeners.forEach(b::addCommandListener);
    problems.addAll(0, in.problems());
    if (!problems.isEmpty()) {
      // Report the value problems together with whatever the builder finds in the rest.
      try {
        b.build();
      } catch (ConfigException e) {
        for (String p : e.problems()) {
          if (!problems.contains(p)) {
            problems.add(p);
          }
        }
      }
      throw new ConfigException(problems);
    }
    return b.build();
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

  /** The URL as given ({@code mongodb.url}); never log it unmasked: see {@link #maskedUrl()}. */
  public String url() {
    return url;
  }

  /** The URL with its password masked, for messages and logs. */
  public String maskedUrl() {
    return Secrets.maskText(url);
  }

  /** The parsed connection string; null for a throwaway cluster. */
  public ConnectionString connectionString() {
    return connectionString;
  }

  /** The throwaway cluster asked for, or null. */
  public ThrowawaySpec throwaway() {
    return throwaway;
  }

  public String database() {
    return database;
  }

  public String collection() {
    return collection;
  }

  /** {@code database.collection}. */
  public String namespace() {
    return database + "." + collection;
  }

  /** Null: the URL's, or the server's default. */
  public WriteConcern writeConcern() {
    return writeConcern;
  }

  /** Null: the URL's, or primary. */
  public ReadPreference readPreference() {
    return readPreference;
  }

  /** How long the first contact of a phase waits for a server ({@value #CONNECT_WAIT}). */
  public long connectWait(TimeUnit unit) {
    return unit.convert(connectWaitMs, TimeUnit.MILLISECONDS);
  }

  public long serverSelectionTimeout(TimeUnit unit) {
    return unit.convert(serverSelectionTimeoutMs, TimeUnit.MILLISECONDS);
  }

  /** Every request's deadline: {@code mongodb.timeout.ms} or the URL's {@code timeoutMS}. */
  public long timeout(TimeUnit unit) {
    return unit.convert(timeoutMs, TimeUnit.MILLISECONDS);
  }

  /** The 2dsphere index build's deadline ({@code mongodb.index.timeout.ms}). */
  public long indexTimeout(TimeUnit unit) {
    return unit.convert(indexTimeoutMs, TimeUnit.MILLISECONDS);
  }

  public Integer maxConnections() {
    return maxConnections;
  }

  /** The most client threads sharing the client, or null when unknown. */
  public Integer clientThreads() {
    return clientThreads;
  }

  /**
   * Connections per server the client may open: {@code mongodb.maxconnections}, else the URL's
   * {@code maxPoolSize}, else the client threads (one connection each), else the driver's 100. Beyond
   * the pool, requests queue inside the client and the measured maximum would be the pool's.
   */
  public int poolSize() {
    return poolSize;
  }

  /** Where {@link #poolSize()} comes from: {@code mongodb.maxconnections}, the URL, {@code clientthreads} or the driver. */
  public String poolSource() {
    return poolSource;
  }

  /** The pool as recorded in {@code run.json}'s topology. */
  public java.util.Map<String, Object> poolDescription() {
    java.util.Map<String, Object> pool = new java.util.LinkedHashMap<>();
    pool.put("maxSize", poolSize);
    pool.put("source", poolSource);
    pool.put("clientThreads", clientThreads);
    pool.put("threadsBeyondPool", clientThreads != null && poolSize > 0 && clientThreads > poolSize);
    return pool;
  }

  public int geoBatchSize() {
    return geoBatchSize;
  }

  public int ycsbBatchSize() {
    return ycsbBatchSize;
  }

  public boolean upsert() {
    return upsert;
  }

  public boolean drop() {
    return drop;
  }

  /** Null: unsharded. */
  public ShardKey shardKey() {
    return shardKey;
  }

  /** Null: the server's default. */
  public Integer numInitialChunks() {
    return numInitialChunks;
  }

  public IndexWhen indexWhen() {
    return indexWhen;
  }

  public long indexPoll(TimeUnit unit) {
    return unit.convert(indexPollMs, TimeUnit.MILLISECONDS);
  }

  /** What the near query sends as {@code $maxDistance}. */
  public MaxDistance maxDistance() {
    return maxDistance;
  }

  /** YCSB's phase hint, or null when nobody said. */
  public Boolean doTransactions() {
    return doTransactions;
  }

  public List<CommandListener> commandListeners() {
    return commandListeners;
  }

  /**
   * What identifies one shared client: the URL and the client-level options. Write concern, read
   * preference and batch sizes apply per collection and do not need a client of their own.
   */
  public String clientKey() {
    return url + "|sst=" + serverSelectionTimeoutMs + "|timeout=" + timeoutMs + "|pool=" + poolSize + "|listeners="
        + commandListeners.stream().map(l -> l.getClass().getName() + "@" + System.identityHashCode(l)).toList();
  }

  @Override
  public String toString() {
    return "MongoSettings{url=" + maskedUrl() + ", database=" + database + ", collection=" + collection
        + ", writeConcern=" + (writeConcern == null ? "from URL" : describe(writeConcern))
        + ", readPreference=" + (readPreference == null ? "from URL" : readPreference.getName())
        + ", serverSelectionTimeoutMs=" + serverSelectionTimeoutMs + ", timeoutMs=" + timeoutMs + ", maxConnections=" + maxConnections + ", poolSize=" + poolSize + " (" + poolSource + ")"
        + ", geoBatchSize=" + geoBatchSize + ", ycsbBatchSize=" + ycsbBatchSize + ", upsert=" + upsert
        + ", drop=" + drop + ", shardKey=" + shardKey + ", numInitialChunks=" + numInitialChunks
        + ", indexWhen=" + indexWhen + ", indexPollMs=" + indexPollMs + ", maxDistance=" + maxDistance + "}";
  }
}
