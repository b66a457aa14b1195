package org.geoshard.mongodb;

import static org.geoshard.mongodb.MongoSettings.CLIENT_THREADS;
import static org.geoshard.mongodb.MongoSettings.CONNECT_WAIT;
import static org.geoshard.mongodb.MongoSettings.MAX_CONNECTIONS;
import static org.geoshard.mongodb.MongoSettings.SERVER_SELECTION_TIMEOUT;
import static org.geoshard.mongodb.MongoSettings.TIMEOUT_MS;
import static org.geoshard.mongodb.MongoSettings.URL;

import com.mongodb.ConnectionString;
import com.mongodb.event.CommandListener;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.api.Secrets;

/**
 * How the bindings reach MongoDB, immutable: the URL (or throwaway cluster), every request's deadline, the
 * server selection timeout, the pool, the command listeners, and how long the first contact waits.
 *
 * <p>Two connection settings are {@linkplain #equals equal} when they make the same client, so that one
 * shared client serves both ({@link SharedClients} is keyed by this value): the same URL, server selection
 * timeout, deadline, pool size and command listeners. A listener's identity is its {@code equals}: the same
 * object, unless the listener is a value that says two of its kind hear the same (the driver calls every
 * listener of a client for every command, so a client is shared only by those that want the same ones
 * called). How long the first contact waits and where the pool size came from do not change the client,
 * and do not take part.
 */
public final class MongoConnectionSettings {
  /** The longest application name the driver sends in its handshake (UTF-8 bytes). */
  static final int MAX_APP_NAME_BYTES = 128;

  private final String url;
  private final ConnectionString connectionString;
  private final ThrowawaySpec throwaway;
  private final String database;
  private final long serverSelectionTimeoutMs;
  /** The server selection timeout was given (URL or property), not the default. */
  private final boolean selectionGiven;
  private final long timeoutMs;
  private final boolean timeoutDefault;
  private final long connectWaitMs;
  private final Integer maxConnections;
  private final Integer clientThreads;
  private final int poolSize;
  private final String poolSource;
  private final List<CommandListener> commandListeners;

  public static Builder builder() {
    return new Builder();
  }

  /** A builder; every value starts at its documented default. */
  public static final class Builder {
    private String url = MongoSettings.DEFAULT_URL;
    /** Null: the URL's serverSelectionTimeoutMS, else the default. */
    private Long serverSelectionTimeoutMs;
    /** Null: the URL's timeoutMS, else the default. */
    private Long timeoutMs;
    private long connectWaitMs = TimeUnit.SECONDS.toMillis(MongoSettings.DEFAULT_CONNECT_WAIT_SECONDS);
    private Integer maxConnections;
    private Integer clientThreads;
    private final List<CommandListener> commandListeners = new ArrayList<>();

    private Builder() {
    }

    /** {@code mongodb://}, {@code mongodb+srv://} or {@code testcontainers:Ns}; default {@value MongoSettings#DEFAULT_URL}. */
    public Builder url(String url) {
      this.url = url;
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

    /** Listens to every command of the client (in addition to the binding's own counters). */
    public Builder addCommandListener(CommandListener listener) {
      this.commandListeners.add(Objects.requireNonNull(listener, "listener"));
      return this;
    }

    /**
     * @throws ConfigException listing every problem, one sentence each, naming the property
     */
    public MongoConnectionSettings build() throws ConfigException {
      List<String> problems = new ArrayList<>();
      MongoConnectionSettings settings = build(problems);
      if (!problems.isEmpty()) {
        throw new ConfigException(problems);
      }
      return settings;
    }

    /**
     * The settings, each problem added to {@code problems}; with problems, a value only for the checks that
     * combine it with others (it never leaves {@link MongoSettings}).
     */
    MongoConnectionSettings build(List<String> problems) {
      return new MongoConnectionSettings(this, problems);
    }
  }

  private MongoConnectionSettings(Builder b, List<String> problems) {
    String givenUrl = b.url == null || b.url.isBlank() ? MongoSettings.DEFAULT_URL : b.url.trim();
    ConnectionString cs = null;
    ThrowawaySpec spec = null;
    String db = MongoSettings.DEFAULT_DATABASE;
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
        db = pathDb == null || pathDb.isEmpty() || pathDb.equals("admin") ? MongoSettings.DEFAULT_DATABASE : pathDb;
        String appName = cs.getApplicationName();
        int appNameBytes = appName == null ? 0 : appName.getBytes(StandardCharsets.UTF_8).length;
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
    this.url = givenUrl;
    this.connectionString = cs;
    this.throwaway = spec;
    this.database = db;
    // What the URL says wins over the defaults (a value given both ways must agree, checked above).
    this.selectionGiven = urlSelection != null || b.serverSelectionTimeoutMs != null;
    this.serverSelectionTimeoutMs = urlSelection != null ? urlSelection
        : b.serverSelectionTimeoutMs != null ? b.serverSelectionTimeoutMs
        : TimeUnit.SECONDS.toMillis(MongoSettings.DEFAULT_SERVER_SELECTION_TIMEOUT_SECONDS);
    this.timeoutMs = urlTimeout != null ? urlTimeout : b.timeoutMs != null ? b.timeoutMs : MongoSettings.DEFAULT_TIMEOUT_MS;
    this.timeoutDefault = urlTimeout == null && b.timeoutMs == null;
    selectionBeyondTheDeadline(urlTimeout, problems);
    if (b.maxConnections != null && b.maxConnections < 1) {
      problems.add("Property '" + MAX_CONNECTIONS + "' must be at least 1, but is " + b.maxConnections + ".");
    }
    if (b.clientThreads != null && b.clientThreads < 1) {
      problems.add("Property '" + CLIENT_THREADS + "' must be at least 1, but is " + b.clientThreads + ".");
    }
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
      this.poolSize = MongoSettings.DRIVER_DEFAULT_POOL_SIZE;
      this.poolSource = "driver default";
    }
    this.commandListeners = List.copyOf(b.commandListeners);
  }

  /**
   * Refuses a server selection timeout the user gave (property or URL) that is longer than a request's
   * deadline: the driver's timeoutMS bounds server selection too, so it would silently wait the deadline,
   * not the time asked for (pinned by ClientOptionsTest). Refused rather than the deadline raised, because
   * the deadline decides which requests count as errors: the benchmark keeps the one the user set. The
   * 5 s default is not checked: nobody asked for it, and the README says the deadline bounds it.
   */
  private void selectionBeyondTheDeadline(Long urlTimeout, List<String> problems) {
    // A deadline below 1 ms (timeoutMS=0, none) is refused on its own above; no second sentence about it.
    if (!selectionGiven || timeoutMs < 1 || serverSelectionTimeoutMs <= timeoutMs) {
      return;
    }
    String timeoutSource = urlTimeout != null ? "timeoutMS=" + urlTimeout + " in '" + URL + "'"
        : "'" + TIMEOUT_MS + "' (" + timeoutMs + " ms" + (timeoutDefault ? ", the default" : "") + ")";
    problems.add(selectionSource() + " is longer than " + timeoutSource + ", every request's deadline, which bounds "
        + "its server selection too: a request would give up after " + timeoutMs + " ms, not " + serverSelectionTimeoutMs
        + " ms. Raise " + (urlTimeout != null ? "timeoutMS" : TIMEOUT_MS) + " to at least " + serverSelectionTimeoutMs
        + " or lower the server selection timeout to at most " + timeoutMs + " ms.");
  }

  /** Where the server selection timeout the user gave is said, as a problem names it. */
  private String selectionSource() {
    Integer urlSelection = connectionString == null ? null : connectionString.getServerSelectionTimeout();
    return urlSelection != null ? "serverSelectionTimeoutMS=" + urlSelection + " in '" + URL + "'"
        : "Property '" + SERVER_SELECTION_TIMEOUT + "' (" + serverSelectionTimeoutMs + " ms)";
  }

  /**
   * The sentence refusing a server selection timeout the user gave that is longer than another request's
   * deadline ({@code deadlineProperty}, the index build's), or null when it is not.
   */
  String selectionBeyond(String deadlineProperty, long deadlineMs, String what) {
    if (!selectionGiven || deadlineMs < 1 || serverSelectionTimeoutMs <= deadlineMs) {
      return null;
    }
    return selectionSource() + " is longer than '" + deadlineProperty + "' (" + deadlineMs + " ms), " + what
        + ", which bounds its server selection too. Raise " + deadlineProperty + " to at least " + serverSelectionTimeoutMs
        + " or lower the server selection timeout to at most " + deadlineMs + " ms.";
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

  /** The URL's database, unless it is absent or {@code admin}: then {@value MongoSettings#DEFAULT_DATABASE}. */
  public String database() {
    return database;
  }

  /** How long the first contact of a phase waits for a server ({@value MongoSettings#CONNECT_WAIT}). */
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

  /** {@code mongodb.maxconnections}, or null. */
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
  public Map<String, Object> poolDescription() {
    Map<String, Object> pool = new LinkedHashMap<>();
    pool.put("maxSize", poolSize);
    pool.put("source", poolSource);
    pool.put("clientThreads", clientThreads);
    pool.put("threadsBeyondPool", clientThreads != null && poolSize > 0 && clientThreads > poolSize);
    return pool;
  }

  /** Listeners on every command of the client (besides the binding's own counters). */
  public List<CommandListener> commandListeners() {
    return commandListeners;
  }

  /** Equal when they make the same client (see the class): what the shared client is keyed by. */
  @Override
  public boolean equals(Object o) {
    return o instanceof MongoConnectionSettings other && url.equals(other.url)
        && serverSelectionTimeoutMs == other.serverSelectionTimeoutMs && timeoutMs == other.timeoutMs
        && poolSize == other.poolSize && commandListeners.equals(other.commandListeners);
  }

  @Override
  public int hashCode() {
    return Objects.hash(url, serverSelectionTimeoutMs, timeoutMs, poolSize, commandListeners);
  }

  @Override
  public String toString() {
    return "MongoConnectionSettings{url=" + maskedUrl() + ", database=" + database + ", serverSelectionTimeoutMs="
        + serverSelectionTimeoutMs + ", timeoutMs=" + timeoutMs + ", maxConnections=" + maxConnections + ", poolSize="
        + poolSize + " (" + poolSource + "), connectWaitMs=" + connectWaitMs + ", commandListeners="
        + commandListeners.size() + "}";
  }
}
