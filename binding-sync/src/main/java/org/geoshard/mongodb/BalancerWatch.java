package org.geoshard.mongodb;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.MongoException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.bson.Document;
import org.geoshard.harness.api.Secrets;
import org.geoshard.harness.api.WaitingNotice;
import org.geoshard.harness.api.WatchesStages.StageWatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A sharded cluster's balancer around one phase: with {@code mongodb.balancer=pause} stopped before the
 * first stage and started again when the phase closes (only if it ran before); either way, each stage's
 * committed chunk migrations from {@code config.changelog} ({@code moveChunk.commit}, the entry every
 * version from 3.4 to 8.0 writes, also for {@code moveRange}), recorded in {@code run.json} under
 * {@code migrations}. On a client of its own, so that the binding instance that opened it can go.
 */
final class BalancerWatch implements StageWatch {
  private static final Logger LOG = LoggerFactory.getLogger(BalancerWatch.class);
  static final String FIELD = "migrations";
  /** How many committed migrations a stage lists (all are counted). */
  static final int LISTED = 20;
  /** Reads of the catalog: a cluster that does not answer costs seconds, not the benchmark's deadline. */
  private static final Duration READ_WAIT = Duration.ofSeconds(10);
  /** balancerStop waits for the balancer's current round; the shell's own default for it is 60 s. */
  static final Duration STOP_WAIT = Duration.ofSeconds(60);

  private final MongoClient client;
  private final BalancerPolicy policy;
  private final String where;
  /** What the process has said already (one warning for an unreadable balancer, not one per phase). */
  private final SaidOnce said;
  private String modeBefore;
  private boolean paused;
  private boolean closed;

  BalancerWatch(MongoClient client, BalancerPolicy policy, String maskedUrl, SaidOnce said) {
    this.client = client;
    this.policy = policy;
    this.where = maskedUrl;
    this.said = said;
  }

  /** A watch on a client of its own to the routers of {@code url}; {@code said} is the process's. */
  static BalancerWatch open(String url, BalancerPolicy policy, String maskedUrl, SaidOnce said) {
    MongoClientSettings settings = MongoClientSettings.builder().applyConnectionString(new ConnectionString(url))
        .timeout(READ_WAIT.toMillis(), TimeUnit.MILLISECONDS)
        .applyToClusterSettings(b -> b.serverSelectionTimeout(READ_WAIT.toMillis(), TimeUnit.MILLISECONDS))
        .applyToConnectionPoolSettings(b -> b.maxSize(1).minSize(0))
        .applicationName("geoshard-balancer-watch").build();
    return new BalancerWatch(MongoClients.create(settings), policy, maskedUrl, said);
  }

  @Override
  public String field() {
    return FIELD;
  }

  @Override
  public void started(String stage) {
    if (modeBefore != null) {
      return;  // the phase's first stage decided; the balancer stays as it was set until close
    }
    MongoDatabase admin = client.getDatabase("admin");
    try {
      modeBefore = admin.runCommand(new Document("balancerStatus", 1)).getString("mode");
    } catch (MongoException e) {
      modeBefore = "unreadable";
      // The server's short answer, not the driver's message with the whole reply; a bench's every run would repeat it.
      String line = "Cannot read the balancer's state on " + where + ": " + Secrets.maskText(Failures.brief(e))
          + "; its migrations are still read from config.changelog.";
      if (said.first("balancer unreadable " + where)) {
        LOG.warn(line);
      } else {
        LOG.debug(line);
      }
      return;
    }
    if (policy == BalancerPolicy.PAUSE && !"off".equals(modeBefore)) {
      LOG.info("Stopping the balancer for the phase ({}=pause); it finishes its current round first.",
          BalancerPolicy.PROPERTY);
      try (WaitingNotice notice = WaitingNotice.start("the balancer's round on " + where, STOP_WAIT,
          BalancerPolicy.PROPERTY + "=pause", LOG::info)) {
        // The deadline goes to the server as the command's maxTimeMS (the driver's timeoutMS): one given in the
        // command as well would be a second field of the same name.
        admin.withTimeout(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS).runCommand(new Document("balancerStop", 1));
        paused = true;
      } catch (MongoException e) {
        LOG.warn("Could not stop the balancer on {} ({}=pause): {}; the phase runs with it on.", where,
            BalancerPolicy.PROPERTY, e.getMessage());
      }
    }
  }

  @Override
  public Map<String, Object> ended(String stage, Instant start, Instant end) {
    Map<String, Object> found = new LinkedHashMap<>();
    found.put("balancer", state());
    try {
      List<Document> commits = client.getDatabase("config").getCollection("changelog")
          .find(new Document("what", "moveChunk.commit")
              .append("time", new Document("$gte", Date.from(start)).append("$lt", Date.from(end))))
          .sort(new Document("time", 1)).into(new ArrayList<>());
      found.putAll(summary(commits));
      long committed = commits.size();
      if (committed > 0 && !"after-load".equals(stage)) {
        found.put("warning", committed + " chunk migration" + (committed == 1 ? " was" : "s were") + " committed during the "
            + stage + " (" + found.get("perNamespace") + "): its figures include the copying and the routing change;"
            + " " + BalancerPolicy.PROPERTY + "=pause keeps the balancer still");
      }
    } catch (MongoException e) {
      found.put("unreadable", String.valueOf(e.getMessage()));
    }
    return found;
  }

  /** Counted, per namespace, and the first {@link #LISTED} with their time, range and shards. */
  static Map<String, Object> summary(List<Document> commits) {
    Map<String, Object> out = new LinkedHashMap<>();
    Map<String, Integer> perNamespace = new TreeMap<>();
    List<Map<String, Object>> listed = new ArrayList<>();
    for (Document commit : commits) {
      perNamespace.merge(String.valueOf(commit.get("ns")), 1, Integer::sum);
      if (listed.size() < LISTED) {
        Document details = commit.get("details", Document.class);
        Map<String, Object> entry = new LinkedHashMap<>();
        Date time = commit.getDate("time");
        entry.put("time", time == null ? null : time.toInstant().toString());
        entry.put("ns", commit.get("ns"));
        if (details != null) {
          for (String name : List.of("from", "to", "min", "max")) {
            Object value = details.get(name);
            entry.put(name, value instanceof Document d ? d.toJson() : value);
          }
        }
        listed.add(entry);
      }
    }
    out.put("committed", commits.size());
    out.put("perNamespace", perNamespace);
    out.put("listed", listed);
    return out;
  }

  private String state() {
    if (modeBefore == null) {
      return "not read (the watch started no stage)";
    }
    if (paused) {
      return "paused (was " + modeBefore + ")";
    }
    return policy == BalancerPolicy.PAUSE && "off".equals(modeBefore) ? "off before the phase: left off"
        : "left as it was (mode " + modeBefore + ")";
  }

  /** Starts the balancer again if this watch stopped it, then lets the client go. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (paused) {
        client.getDatabase("admin").runCommand(new Document("balancerStart", 1));
        LOG.info("Started the balancer again on {} (it was {} before the phase).", where, modeBefore);
      }
    } catch (MongoException e) {
      LOG.error("Could not start the balancer again on {}: {}. Start it by hand: sh.startBalancer().", where,
          e.getMessage());
    } finally {
      client.close();
    }
  }
}
