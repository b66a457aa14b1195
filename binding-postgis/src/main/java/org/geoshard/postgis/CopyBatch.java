package org.geoshard.postgis;

import org.geoshard.harness.api.BatchOutcomes;
import site.ycsb.Status;

/**
 * One thread's rows waiting for a COPY, in COPY's text format, and how many of them were answered
 * {@code BATCHED_OK}: the record whose call fills the batch gets the batch's outcome as its own
 * answer, the others learn it through the harness's {@link BatchOutcomes.Listener}. COPY is all or
 * nothing, so a batch settles as a whole.
 */
final class CopyBatch {
  private final String operation;
  private final int batchSize;
  private final StringBuilder rows = new StringBuilder(1 << 14);
  private int size;
  private int answered;

  /** @param operation the operation name the workload measures these records under */
  CopyBatch(String operation, int batchSize) {
    this.operation = operation;
    this.batchSize = batchSize;
  }

  /** Where the next row is appended. */
  StringBuilder rows() {
    return rows;
  }

  /** Counts the row just appended; true when the batch is full and must be written now. */
  boolean full() {
    return ++size >= batchSize;
  }

  /** The row just counted waits in the batch. */
  Status waiting() {
    answered++;
    return Status.BATCHED_OK;
  }

  int size() {
    return size;
  }

  /** Hands over the rows to write; the batch is empty afterwards (its answered records not yet settled). */
  String take() {
    String text = rows.toString();
    rows.setLength(0);
    size = 0;
    return text;
  }

  /** Reports the written batch's outcome for the records answered BATCHED_OK; returns the outcome. */
  Status settle(BatchOutcomes.Listener listener, boolean written) {
    int records = answered;
    answered = 0;
    if (records > 0) {
      listener.settled(operation, written ? records : 0, written ? 0 : records);
    }
    return written ? Status.OK : Status.ERROR;
  }
}
