package org.geoshard.harness.run;

import java.util.LinkedHashMap;
import java.util.Map;
import org.geoshard.harness.api.BatchOutcomes;
import org.geoshard.harness.measure.Meters;

/**
 * One binding instance's buffered records (answered {@link site.ycsb.Status#BATCHED_OK}) that its
 * batches have not settled yet. A buffered record is held here with its latency and counted, as a
 * success or an error, only when the binding reports the batch that carried it: until then it is
 * neither, so that successful inserts equal rows written.
 *
 * <p>A binding may settle a batch while the call that completed it is still running (the record of
 * that call answered {@code BATCHED_OK} too, a moment later): outcomes settled beyond the records
 * held are kept as credit and given to the next buffered records. Synchronized because a binding may
 * settle from a driver's thread; uncontended, it costs little.
 */
final class BatchLedger implements BatchOutcomes.Listener {
  private final Meters meters;
  private final int stripe;
  private final Map<String, Pending> byOperation = new LinkedHashMap<>();
  /**
   * Set by {@link #abandon()}: the phase counted every record held as an error. A record buffered later
   * is an error at once, and a batch settled later (a flush that outlived the stop's grace) is not
   * counted again.
   */
  private boolean closed;

  BatchLedger(Meters meters, int stripe) {
    this.meters = meters;
    this.stripe = stripe;
  }

  /** A record was buffered under {@code operation}; its call took {@code micros}. */
  synchronized void buffered(String operation, long micros) {
    if (closed) {
      meters.meter(operation).record(stripe, micros, false);
      return;
    }
    Pending pending = byOperation.computeIfAbsent(operation, name -> new Pending());
    if (pending.creditFailed > 0) {
      pending.creditFailed--;
      meters.meter(operation).record(stripe, micros, false);
    } else if (pending.creditOk > 0) {
      pending.creditOk--;
      meters.meter(operation).record(stripe, micros, true);
    } else {
      pending.add(micros);
    }
  }

  @Override
  public synchronized void settled(String operation, int ok, int failed) {
    if (ok < 0 || failed < 0) {
      throw new IllegalArgumentException("A batch settles a count of records >= 0, not ok=" + ok + ", failed=" + failed);
    }
    if (closed) {
      return;  // its records were counted as errors when the ledger was abandoned
    }
    Pending pending = byOperation.computeIfAbsent(operation, name -> new Pending());
    int okLeft = ok;
    int failedLeft = failed;
    while ((okLeft > 0 || failedLeft > 0) && pending.size > 0) {
      boolean success = okLeft > 0;
      if (success) {
        okLeft--;
      } else {
        failedLeft--;
      }
      meters.meter(operation).record(stripe, pending.poll(), success);
    }
    pending.creditOk += okLeft;
    pending.creditFailed += failedLeft;
  }

  /** Records held under every operation (for tests and the final count). */
  synchronized long held() {
    return byOperation.values().stream().mapToLong(p -> p.size).sum();
  }

  /**
   * After the binding's cleanup, or when its thread outlived the stop's grace (a flush waiting on a
   * server that is gone): a record still held was never reported written, so it failed. Returns how
   * many were counted as errors so; credit left over (a binding that settled more records than it
   * buffered) is dropped and returned in {@code [1]}. Closes the ledger: what the binding settles
   * afterwards is not counted again. Idempotent.
   */
  synchronized long[] abandon() {
    closed = true;
    long unsettled = 0;
    long excess = 0;
    for (Map.Entry<String, Pending> entry : byOperation.entrySet()) {
      Pending pending = entry.getValue();
      while (pending.size > 0) {
        meters.meter(entry.getKey()).record(stripe, pending.poll(), false);
        unsettled++;
      }
      excess += pending.creditOk + pending.creditFailed;
      pending.creditOk = 0;
      pending.creditFailed = 0;
    }
    return new long[] {unsettled, excess};
  }

  /** The latencies of one operation's held records, oldest first (a ring), and its credit. */
  private static final class Pending {
    private long[] latencies = new long[64];
    private int head;
    private int size;
    private long creditOk;
    private long creditFailed;

    void add(long micros) {
      if (size == latencies.length) {
        long[] larger = new long[latencies.length * 2];
        for (int i = 0; i < size; i++) {
          larger[i] = latencies[(head + i) % latencies.length];
        }
        latencies = larger;
        head = 0;
      }
      latencies[(head + size) % latencies.length] = micros;
      size++;
    }

    long poll() {
      long micros = latencies[head];
      head = (head + 1) % latencies.length;
      size--;
      return micros;
    }
  }
}
