package org.geoshard.harness.api;

import java.util.Set;

/**
 * Implemented by a workload that calls contracts of the binding. The harness checks the binding
 * against them before any thread starts, so that a wrong pairing fails at once with a clear message.
 */
public interface RequiresContracts {
  /**
   * The contracts the given phase needs.
   *
   * @param loadPhase true for {@code load}, false for {@code run}
   */
  Set<Class<?>> requiredContracts(boolean loadPhase);
}
