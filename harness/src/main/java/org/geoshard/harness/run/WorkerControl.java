package org.geoshard.harness.run;

import java.util.Properties;

/** What a client thread asks of whoever runs it (and all it may ask): the start, the stop, its failures. */
interface WorkerControl {
  /** The properties the workload initialises each thread's state with. */
  Properties properties();

  /** The clock and the wait of the thread's schedule. */
  Ticker ticker();

  boolean stopRequested();

  /** Called once initialised: waits for the start; false means the phase was stopped before it started. */
  boolean awaitStart(int id);

  void failedToStart(int id, Throwable e);

  void crashed(int id, Throwable e);

  void cleanupFailed(int id, Throwable e);
}
