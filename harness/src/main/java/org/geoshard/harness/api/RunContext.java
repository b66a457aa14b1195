package org.geoshard.harness.api;

import java.util.function.Supplier;

/**
 * What the binding instances of one phase share, handed by the harness to each instance before
 * {@code init} ({@link JoinsRun}). It replaces the JVM-wide registries a YCSB binding needs because
 * YCSB hands its instances nothing in common: a client per cluster, a router, counters, a failure log.
 * Everything shared lives as long as the phase: the harness closes the context after the last
 * instance's {@code cleanup}, closing what it holds that is {@link AutoCloseable}, latest first.
 */
public interface RunContext {
  /** What the running workload declares. */
  DataDeclaration data();

  /**
   * The phase's one object for the key, made by {@code create} on first use (at most once, also
   * under concurrent first uses). Use a key of the binding's own class, such as
   * {@code SharedClients.class}, so bindings never meet each other's objects.
   *
   * @throws IllegalStateException when the context is closed
   * @throws ClassCastException when the key already holds an object of another type
   */
  <T> T shared(Object key, Class<T> type, Supplier<? extends T> create);

  /**
   * What outlives the phase: the context of the whole command, shared by every phase it runs (a
   * {@code bench} runs many), for what is said once per process (a warning about the server that
   * every phase would repeat). A phase run alone is its own process context.
   */
  default RunContext process() {
    return this;
  }
}
