package org.geoshard.harness.api;

import java.time.Instant;
import java.util.Map;
import site.ycsb.DBException;

/**
 * Implemented by a binding that acts on its database around the stages the harness measures and says
 * what the database did meanwhile: MongoDB pauses the balancer when asked and counts the chunk
 * migrations committed in each stage. The harness asks for one watch per phase, on a binding instance of
 * its own that is cleaned up at once (the watch holds connections of its own), tells it when each stage
 * ({@code load}, {@code after-load}, {@code run}) starts and ends, records what it finds in
 * {@code run.json} under {@link StageWatch#field()}, and closes it when the phase is over, also after a
 * failure, a give-up or Ctrl-C.
 */
public interface WatchesStages {
  /** The watch of one phase, or null when there is nothing to watch (for example no sharded cluster). */
  StageWatch stageWatch() throws DBException;

  /** One phase's watch. Its calls come from one thread, in order; none may fail the phase. */
  interface StageWatch {
    /** The {@code run.json} field its findings go under, one entry per stage label. */
    String field();

    /** Before the stage's first operation (a stage label: {@code load}, {@code after-load}, {@code run}). */
    void started(String stage);

    /**
     * After the stage, also one that failed or was cut off: what the database did between start and
     * end. An entry {@code "warning"} (one sentence) marks a stage whose figures it may have changed.
     */
    Map<String, Object> ended(String stage, Instant start, Instant end);

    /** Undoes what {@link #started} changed and lets the connections go. Idempotent. */
    void close();
  }
}
