package org.geoshard.harness.observe;

/**
 * Told by the runner when a {@link Stage} starts and ends, on the runner's thread. A listener must not
 * fail the phase: what it cannot do it logs. {@link #ended} is called for every stage started, also
 * when the stage failed or was interrupted.
 */
public interface StageListener {
  default void started(Stage stage) {
  }

  default void ended(Stage stage) {
  }
}
