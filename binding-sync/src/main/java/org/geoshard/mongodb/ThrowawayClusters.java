package org.geoshard.mongodb;

import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.DBException;

/**
 * The throwaway clusters of {@code mongodb.url=testcontainers:Ns} of one run's phase, one per spec,
 * started on first use and stopped when the phase ends (unless Testcontainers' reuse keeps them for the
 * next command), or when the JVM ends for a phase nobody closes (plain YCSB's).
 *
 * <p>One object per phase, held by its {@link org.geoshard.harness.api.RunContext} beside the shared
 * clients ({@link SharedClients#in}): one command (a load: preparation, the client threads, the topology)
 * makes several binding instances one after the other, and each lets its client go; the cluster must
 * outlive all of them. The only class that touches {@link ThrowawayCluster}, so that Testcontainers is
 * loaded only for {@code testcontainers:} URLs.
 */
final class ThrowawayClusters implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ThrowawayClusters.class);
  /** Guarded by this. */
  private final Map<ThrowawaySpec, ThrowawayCluster> clusters = new HashMap<>();
  /** The hooks that stop the clusters when the JVM ends before the phase is closed; guarded by this. */
  private final Map<ThrowawaySpec, Thread> hooks = new HashMap<>();
  private boolean closed;

  /** The URL of the cluster for {@code spec}, started if needed (this can take a minute or two). */
  synchronized String url(ThrowawaySpec spec, String database) throws DBException {
    if (closed) {
      throw new MongoStartException("The throwaway cluster " + spec.url() + " was asked for after the end of its phase.");
    }
    ThrowawayCluster cluster = clusters.get(spec);
    if (cluster == null) {
      try {
        if (!ThrowawayCluster.dockerAvailable()) {
          throw new MongoStartException("Property '" + MongoSettings.URL + "' is " + spec.url()
              + ", a throwaway cluster started with Testcontainers, which needs a Docker engine, and none was found "
              + "(set DOCKER_HOST or start Docker), or use a mongodb:// URL.");
        }
        boolean reusable = reuseEnabled();
        LOG.info("Starting a throwaway MongoDB cluster for {} ({} shards, {}){}; this takes a minute or two.", spec.url(),
            spec.shards(), spec.image(), reusable ? ", kept for the next command (Testcontainers reuse)" : "");
        cluster = ThrowawayCluster.start(spec.shards(), spec.image(), reusable);
      } catch (NoClassDefFoundError e) {
        throw new MongoStartException("Property '" + MongoSettings.URL + "' is " + spec.url()
            + ", which needs Testcontainers on the class path (" + e.getMessage() + ").");
      } catch (RuntimeException e) {
        LOG.debug("The throwaway cluster failed to start", e);
        throw new MongoStartException("The throwaway cluster " + spec.url() + " could not start: "
            + Failures.rootMessage(e));
      }
      clusters.put(spec, cluster);
      Thread hook = new Thread(cluster::close, "throwaway-cluster-stop");
      Runtime.getRuntime().addShutdownHook(hook);
      hooks.put(spec, hook);
    }
    return cluster.url(database);
  }

  /** Stops the phase's clusters (a reusable one keeps running); idempotent. */
  @Override
  public void close() {
    Map<ThrowawaySpec, ThrowawayCluster> stopping;
    synchronized (this) {
      closed = true;
      stopping = new HashMap<>(clusters);
      clusters.clear();
      for (Thread hook : hooks.values()) {
        try {
          Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
          // the JVM is ending: the hook stops the cluster
          return;
        }
      }
      hooks.clear();
    }
    stopping.forEach((spec, cluster) -> {
      LOG.info("Stopping the throwaway MongoDB cluster of {}{}.", spec.url(),
          cluster.reusable() ? " (reused: left running)" : "");
      cluster.close();
    });
  }

  private static boolean reuseEnabled() {
    try {
      return org.testcontainers.utility.TestcontainersConfiguration.getInstance().environmentSupportsReuse();
    } catch (RuntimeException e) {
      return false;
    }
  }
}
