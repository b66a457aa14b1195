package org.geoshard.mongodb;

import java.util.Properties;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.config.PropertyReader;

/**
 * What the binding does with a sharded cluster's balancer during the measured stages
 * ({@code mongodb.balancer}). Either way each stage's committed migrations are recorded in
 * {@code run.json} ({@link BalancerWatch}).
 */
public enum BalancerPolicy {
  /**
   * The default, as the study ran: it never touched the balancer, so its loads and runs were measured
   * with the balancer moving chunks (a ranged key that starts as one chunk needs it to spread at all).
   */
  LEAVE,
  /** Stopped for the load or run (balancerStop waits for its round), started again after, also on failure. */
  PAUSE;

  public static final String PROPERTY = "mongodb.balancer";

  public static BalancerPolicy fromProperties(Properties properties) throws ConfigException {
    PropertyReader in = new PropertyReader(properties);
    BalancerPolicy policy = in.choice(PROPERTY, LEAVE, BalancerPolicy.class);
    in.throwIfProblems();
    return policy;
  }

  /** {@code leave} or {@code pause}. */
  public String label() {
    return PropertyReader.choiceName(this);
  }
}
