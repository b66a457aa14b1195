package org.geoshard.harness.observe;

/**
 * Something that runs beside a phase on the harness's clock: the server sampler, the block-I/O tracer.
 * The runner tells it, on its own thread, when each {@link Stage} starts and ends and when second 0 of
 * {@code timeseries.csv} is set. A listener must not fail the phase: what it cannot do it logs.
 * {@link #ended} is called for every stage started, also when the stage failed or was interrupted, and
 * {@link #close} may be called twice (once for the final {@code run.json}, once after a failure).
 */
public interface StageListener {
  /** Before anything is measured: connections opened and warmed, so that the first seconds are sampled. */
  default void open() {
  }

  /** Second 0 of {@code timeseries.csv}: called once per phase, after the phase's stage has started. */
  default void clockStarted(long originEpochMs) {
  }

  default void started(Stage stage) {
  }

  default void ended(Stage stage) {
  }

  /**
   * The phase was cut off (Ctrl-C, SIGTERM, a give-up) and {@link #close} follows: whatever waits on a
   * server is abandoned rather than waited for, since that server may never answer.
   */
  default void cutOff() {
  }

  /** The phase is over: stop, flush and record. Idempotent; never throws. */
  default void close() {
  }
}
