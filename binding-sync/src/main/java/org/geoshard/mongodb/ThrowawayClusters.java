package org.geoshard.mongodb;

import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.DBException;

/**
 * The throwaway clusters of {@code mongodb.url=testcontainers:Ns}, one per spec and JVM, started on
 * first use and stopped when the JVM ends (unless Testcontainers' reuse keeps them for the next command).
 *
 * <p>Why static: one command (a load: preparation, the client threads, the topology) makes several
 * binding instances one after the other, and each lets its client go; the cluster must outlive all of
 * them, so it belongs to the JVM, not to a client. The only class that touches {@link ThrowawayCluster},
 * so that Testcontainers is loaded only for {@code testcontainers:} URLs.
 */
final class ThrowawayClusters {
  private static final Logger LOG = LoggerFactory.getLogger(ThrowawayClusters.class);
  /** Guarded by the class. */
  private static final Map<ThrowawaySpec, ThrowawayCluster> CLUSTERS = new HashMap<>();

  private ThrowawayClusters() {
  }

  /** The URL of the cluster for {@code spec}, started if needed (this can take a minute or two). */
  static synchronized String url(ThrowawaySpec spec, String database) throws DBException {
    ThrowawayCluster cluster = CLUSTERS.get(spec);
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
      CLUSTERS.put(spec, cluster);
      ThrowawayCluster started = cluster;
      Runtime.getRuntime().addShutdownHook(new Thread(started::close, "throwaway-cluster-stop"));
    }
    return cluster.url(database);
  }

  private static boolean reuseEnabled() {
    try {
      return org.testcontainers.utility.TestcontainersConfiguration.getInstance().environmentSupportsReuse();
    } catch (RuntimeException e) {
      return false;
    }
  }
}
