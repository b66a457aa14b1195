package org.geoshard.harness.api;

/**
 * Implemented by a binding that buffers records and writes them later in one batch (it answers
 * {@link site.ycsb.Status#BATCHED_OK} for a buffered record). The harness must not count such a
 * record as done until the batch that carried it is written: the binding reports, once per batch,
 * how many of its records were written and how many were not, under the operation that buffered
 * them (e.g. {@code INSERT}, {@code HISTORY_INSERT}). Where the database says which records failed
 * (an unordered bulk write), {@code failed} counts exactly those; where a batch fails as a whole,
 * every record in it failed.
 *
 * <p>The harness hands each binding instance its listener before the first operation; the binding
 * calls it from the thread that flushed (a client thread, or the thread running {@code cleanup()}).
 *
 * <p>The settled counts cover exactly the records the binding answered {@code BATCHED_OK}. The call
 * whose record fills a batch may answer {@code BATCHED_OK} too and settle the whole batch before it
 * returns, or answer its own record's outcome ({@code OK}/{@code ERROR}) and settle only the others;
 * either way no record is counted twice. A record never settled by the end of {@code cleanup()} is
 * counted as an error. A binding that answers {@code BATCHED_OK} without implementing this interface
 * (any plain YCSB binding) has that answer counted as a success at once, as YCSB does.
 */
public interface BatchOutcomes {

  /** Called by the harness once per binding instance, before {@code init()}'s first operation. */
  void batchOutcomeListener(Listener listener);

  /** Receives the settled outcome of each flushed batch. */
  @FunctionalInterface
  interface Listener {
    /**
     * {@code ok} records buffered under {@code operation} were written and {@code failed} were not.
     *
     * @param operation the operation name the records were buffered under
     * @param ok records written, {@code >= 0}
     * @param failed records not written, {@code >= 0}
     */
    void settled(String operation, int ok, int failed);
  }
}
