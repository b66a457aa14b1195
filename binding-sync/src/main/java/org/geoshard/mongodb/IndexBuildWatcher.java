package org.geoshard.mongodb;

import com.mongodb.client.MongoClient;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.bson.Document;
import org.geoshard.harness.api.Secrets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Times an index build on each shard by sampling {@code $currentOp} while {@code createIndexes} runs.
 *
 * <p><b>Why this way.</b> Through a mongos, {@code $currentOp} reports the operations of every shard's
 * primary, each with its {@code shard} and {@code microsecs_running}, so one connection to the router
 * the benchmark already uses sees every shard; no direct connection to shard hosts is needed (they are
 * often unreachable from clients, e.g. inside a container network), nor a log that may have rotated.
 * The alternative, each shard's structured log through {@code getLog} ("Index build: completed
 * successfully", id 20663), needs a connection to every shard primary and keeps only the last 1,024
 * lines in memory, and its attributes vary across versions.
 *
 * <p><b>What it gives, and its limits.</b> For each shard, the build took at least the longest
 * {@code microsecs_running} seen and at most that plus the time until the first sample that no longer
 * saw it (bounds, not one number: the sampling interval is the resolution). A build shorter than the
 * interval may never be seen ({@code seen=false}); the overall time of {@code createIndexes} still
 * bounds it. Sampling needs the {@code inprog} privilege (role clusterMonitor); without it the
 * per-shard figures are reported as unavailable with the reason. Only primaries are sampled; each
 * secondary builds at the same time (4.4+ simultaneous builds) and is not timed here.
 *
 * <p><b>Progress.</b> A long build (minutes at full scale) is not silent: at most every
 * {@code progressEvery} the watcher logs each shard's build as {@code $currentOp} reports it (its
 * {@code msg} and {@code progress.done}/{@code progress.total}, the share done, and how long it runs).
 *
 * <p><b>One build, one or two operations.</b> Up to 4.2 the client's {@code createIndexes} command is the
 * build and carries {@code msg} and {@code progress} itself. From 4.4 a build shows as two operations on
 * each server: the client's {@code createIndexes} (its connection's {@code desc}, no progress; it waits for
 * the build) and the builder thread ({@code desc} {@code IndexBuildsCoordinatorMongod-N}, {@code op}
 * "command", {@code ns} the collection, the caller's command merged into its {@code command}), which
 * carries {@code msg} ("Index Build: scanning collection", "... inserting keys from external sorter into
 * index") and {@code progress}. The watcher matches both, as the manual's filter does
 * ({@code command.createIndexes}, or {@code op: "command"} with a {@code msg} starting "Index Build"),
 * restricted to this namespace, and folds a sample's operations of one shard into one sighting: the
 * longest running time, and {@code msg} and {@code progress} from the entry that has them.
 */
final class IndexBuildWatcher {
  /** What was seen of the build on one shard (or the one server when not sharded). */
  static final class Sighting {
    long maxMicrosRunning;
    long lastSeenRequestNanos;
    long goneResponseNanos = -1;
    long samples;
    String lastMessage;
    long progressDone = -1;
    long progressTotal = -1;
  }

  /** How the builder's {@code msg} starts ("Index Build: scanning collection", ...). */
  static final String BUILD_MESSAGE = "Index Build";
  /** Logs at most once per this interval: a status line, not a flood. */
  static final long PROGRESS_EVERY_NANOS = TimeUnit.SECONDS.toNanos(10);
  private static final Logger LOG = LoggerFactory.getLogger(IndexBuildWatcher.class);

  /** One sample: the operations building the index, as {@code $currentOp} documents. */
  @FunctionalInterface
  interface Sampler {
    List<Document> sample();
  }

  private final Sampler sampler;
  private final String database;
  private final String collection;
  private final long intervalNanos;
  private final LongSupplier clock;
  private final Map<String, Sighting> sightings = new TreeMap<>();
  private volatile boolean stopping;
  private Thread thread;
  private String unavailable;
  private long stopped;
  /** Samples tried, by the sampling thread or (once, if it never got to it) by {@link #stop()}. */
  private volatile int attempts;
  private final Consumer<String> progressLog;
  private final long progressEveryNanos;
  private long lastProgressNanos;

  IndexBuildWatcher(MongoClient client, String database, String collection, long intervalMillis) {
    this(() -> client.getDatabase("admin").aggregate(List.of(
            new Document("$currentOp", new Document("allUsers", true).append("idleConnections", false)),
            new Document("$match", currentOpFilter(database, collection))))
        .into(new ArrayList<>()), database, collection, TimeUnit.MILLISECONDS.toNanos(intervalMillis), System::nanoTime);
  }

  /**
   * The operations of a build of {@code database.collection}: the client's {@code createIndexes}, and from
   * 4.4 the builder thread (the manual's filter, narrowed to the namespace; {@link #isOurBuild} checks the
   * database of the first kind, whose {@code ns} varies).
   */
  static Document currentOpFilter(String database, String collection) {
    return new Document("$or", List.of(
        new Document("command.createIndexes", collection),
        new Document("op", "command").append("ns", database + "." + collection)
            .append("msg", new Document("$regex", "^" + BUILD_MESSAGE))));
  }

  IndexBuildWatcher(Sampler sampler, String database, String collection, long intervalNanos, LongSupplier clock) {
    this(sampler, database, collection, intervalNanos, clock, LOG::info, PROGRESS_EVERY_NANOS);
  }

  IndexBuildWatcher(Sampler sampler, String database, String collection, long intervalNanos, LongSupplier clock,
                    Consumer<String> progressLog, long progressEveryNanos) {
    this.progressLog = progressLog;
    this.progressEveryNanos = progressEveryNanos;
    this.lastProgressNanos = clock.getAsLong();
    this.sampler = sampler;
    this.database = database;
    this.collection = collection;
    this.intervalNanos = intervalNanos;
    this.clock = clock;
  }

  /** Starts sampling in a daemon thread. */
  void start() {
    thread = new Thread(this::loop, "index-build-watcher");
    thread.setDaemon(true);
    thread.start();
  }

  /** Stops sampling (call when createIndexes returned) and gives the per-shard findings. */
  Map<String, Object> stop() {
    stopping = true;
    if (thread != null) {
      thread.interrupt();
      try {
        thread.join(TimeUnit.NANOSECONDS.toMillis(intervalNanos) + 10_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    stopped = clock.getAsLong();
    if (attempts == 0) {
      // The build ended before the first sample: sample once now, so that whether sampling works at all
      // (or why not) is known rather than silently absent.
      sampleOnce();
    }
    return findings();
  }

  private void loop() {
    while (!stopping) {
      if (!sampleOnce()) {
        return;
      }
      try {
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(intervalNanos), (int) (intervalNanos % 1_000_000));
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** One sample; false when sampling is impossible (recorded as unavailable). */
  boolean sampleOnce() {
    attempts++;
    long request = clock.getAsLong();
    List<Document> ops;
    try {
      ops = sampler.sample();
    } catch (RuntimeException e) {
      synchronized (this) {
        unavailable = Secrets.maskText(Failures.brief(e));
      }
      return false;
    }
    long response = clock.getAsLong();
    // One build per shard, seen as one operation (to 4.2) or two (4.4+: the client's and the builder's).
    Map<String, List<Document>> byShard = new TreeMap<>();
    for (Document op : ops) {
      if (isOurBuild(op)) {
        byShard.computeIfAbsent(op.getString("shard") != null ? op.getString("shard") : "server", k -> new ArrayList<>())
            .add(op);
      }
    }
    synchronized (this) {
      byShard.forEach((shard, shardOps) -> sighted(sightings.computeIfAbsent(shard, k -> new Sighting()), shardOps, request));
      if (!byShard.isEmpty() && response - lastProgressNanos >= progressEveryNanos) {
        lastProgressNanos = response;
        for (String shard : byShard.keySet()) {
          progressLog.accept(progressLine(shard, sightings.get(shard)));
        }
      }
      sightings.forEach((shard, s) -> {
        if (!byShard.containsKey(shard) && s.goneResponseNanos < 0) {
          s.goneResponseNanos = response;
        }
      });
    }
    return true;
  }

  /**
   * One sample's operations of one build: one sighting. Its message and progress come from the entry that
   * counts progress (the builder from 4.4, the command itself before), else from any entry with a message.
   */
  private static void sighted(Sighting s, List<Document> shardOps, long request) {
    s.lastSeenRequestNanos = request;
    s.goneResponseNanos = -1;
    s.samples++;
    for (Document op : shardOps) {
      if (op.get("microsecs_running") instanceof Number micros) {
        s.maxMicrosRunning = Math.max(s.maxMicrosRunning, micros.longValue());
      }
    }
    Document reporting = shardOps.stream().filter(op -> op.get("progress") instanceof Document).findFirst()
        .orElse(shardOps.stream().filter(op -> op.getString("msg") != null).findFirst().orElse(shardOps.get(0)));
    if (reporting.getString("msg") != null) {
      s.lastMessage = reporting.getString("msg");
    }
    if (reporting.get("progress") instanceof Document progress && progress.get("done") instanceof Number done
        && progress.get("total") instanceof Number total) {
      s.progressDone = done.longValue();
      s.progressTotal = total.longValue();
    }
  }

  /** {@code Index build on rs0 (ycsb.restaurants): Index Build: scanning collection, 45.2% (12,345 of 27,300), running 35 s}. */
  private String progressLine(String shard, Sighting s) {
    StringBuilder line = new StringBuilder("Index build on ").append(shard).append(" (").append(database).append('.')
        .append(collection).append("): ").append(s.lastMessage == null ? "running" : s.lastMessage);
    if (s.progressTotal > 0) {
      line.append(String.format(Locale.ROOT, ", %.1f%% (%,d of %,d)", 100.0 * s.progressDone / s.progressTotal,
          s.progressDone, s.progressTotal));
    }
    return line.append(", running ").append(s.maxMicrosRunning / 1_000_000).append(" s").toString();
  }

  /** The client's {@code createIndexes} on this collection, or (4.4+) the thread building its index. */
  private boolean isOurBuild(Document op) {
    String ns = op.getString("ns");
    if (op.get("command") instanceof Document command && collection.equals(command.get("createIndexes"))) {
      return ns == null || ns.startsWith(database + ".");  // the client's: db.coll, or db.$cmd on some servers
    }
    return "command".equals(op.getString("op")) && (database + "." + collection).equals(ns)
        && op.getString("msg") != null && op.getString("msg").startsWith(BUILD_MESSAGE);
  }

  /**
   * {"method": ..., "intervalMs": ..., "shards": {"rs0": {"atLeastMs": .., "atMostMs": .., "samples": ..}}}
   * or {"unavailable": reason}.
   */
  synchronized Map<String, Object> findings() {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("method", "$currentOp sampled every " + TimeUnit.NANOSECONDS.toMillis(intervalNanos) + " ms through the "
        + "connection of the benchmark (primaries only; bounds, not one number)");
    if (unavailable != null) {
      out.put("unavailable", unavailable);
    }
    Map<String, Object> shards = new TreeMap<>();
    sightings.forEach((shard, s) -> {
      Map<String, Object> entry = new LinkedHashMap<>();
      long atLeast = s.maxMicrosRunning / 1000;
      long end = s.goneResponseNanos >= 0 ? s.goneResponseNanos : (stopped > 0 ? stopped : clock.getAsLong());
      entry.put("atLeastMs", atLeast);
      entry.put("atMostMs", atLeast + Math.max(0, TimeUnit.NANOSECONDS.toMillis(end - s.lastSeenRequestNanos)));
      entry.put("samples", s.samples);
      if (s.lastMessage != null) {
        entry.put("lastMessage", s.lastMessage);
      }
      shards.put(shard, entry);
    });
    out.put("shards", shards);
    return out;
  }

  /** Shards this watcher saw building the index. */
  synchronized List<String> seenShards() {
    return new ArrayList<>(sightings.keySet());
  }
}
