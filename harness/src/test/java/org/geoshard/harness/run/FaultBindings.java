package org.geoshard.harness.run;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.geoshard.harness.api.BatchOutcomes;
import org.geoshard.harness.api.RetryWait;
import org.geoshard.harness.binding.NoopDB;
import site.ycsb.ByteIterator;
import site.ycsb.Status;

/** Bindings that fail on purpose, for the harness's accounting of failures; test helpers only. */
final class FaultBindings {
  /** Rows each {@link ReportingBatchDB} sink wrote, by its {@code test.sink} property. */
  static final Map<String, AtomicLong> WRITTEN = new ConcurrentHashMap<>();

  private FaultBindings() {
  }

  /** Every second read fails, fast: failures must not count as throughput. */
  public static class HalfFailingDB extends NoopDB {
    private long reads;

    /** How long a failure takes: none (as a refused connection). */
    long failureMicros() {
      return 0;
    }

    @Override
    public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
      // A successful read costs time, a failed one none unless said otherwise.
      if (++reads % 2 == 0) {
        if (failureMicros() > 0) {
          LockSupport.parkNanos(failureMicros() * 1000);
        }
        return Status.ERROR;
      }
      LockSupport.parkNanos(200_000);
      return Status.OK;
    }

    @Override
    public Status update(String table, String key, Map<String, ByteIterator> values) {
      return read(table, key, null, new HashMap<>());
    }
  }

  /** Every second read fails after 20 ms (as a request that times out); a successful one takes 0.2 ms. */
  public static final class SlowFailureDB extends HalfFailingDB {
    static final long FAILURE_MICROS = 20_000;

    @Override
    long failureMicros() {
      return FAILURE_MICROS;
    }
  }

  /** Every read first waits out a 30 ms reconnect back-off ({@link RetryWait}), then succeeds at once. */
  public static final class BackingOffDB extends NoopDB {
    static final long BACKOFF_MICROS = 30_000;

    @Override
    public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
      RetryWait.park(BACKOFF_MICROS * 1000);
      return Status.OK;
    }

    @Override
    public Status update(String table, String key, Map<String, ByteIterator> values) {
      return read(table, key, null, new HashMap<>());
    }
  }

  /**
   * Buffers inserts in batches of 10 and reports every batch: each record answers BATCHED_OK, the
   * call that fills a batch writes it and settles all ten. With {@code test.failevery=N} every Nth
   * batch of an instance fails as a whole (N=1: the database is gone).
   */
  public static final class ReportingBatchDB extends NoopDB implements BatchOutcomes {
    private Listener listener;
    private int buffered;
    private long batches;

    @Override
    public void batchOutcomeListener(Listener listener) {
      this.listener = listener;
    }

    @Override
    public Status insert(String table, String key, Map<String, ByteIterator> values) {
      if (++buffered == 10) {
        flush();
      }
      return Status.BATCHED_OK;
    }

    @Override
    public void cleanup() {
      if (buffered > 0) {
        flush();
      }
    }

    private void flush() {
      int failEvery = Integer.parseInt(getProperties().getProperty("test.failevery", "2"));
      boolean failed = ++batches % failEvery == 0;
      if (failed) {
        LockSupport.parkNanos(1_000_000);  // a failing write still takes a moment
        listener.settled("INSERT", 0, buffered);
      } else {
        WRITTEN.computeIfAbsent(getProperties().getProperty("test.sink"), k -> new AtomicLong()).addAndGet(buffered);
        listener.settled("INSERT", buffered, 0);
      }
      buffered = 0;
    }
  }

  /**
   * Buffers inserts in batches of 10 and settles each full batch as written; its cleanup's flush of the
   * rest waits {@code test.flushwait.ms} (a server killed with a batch buffered: the driver waits for it)
   * and then reports that batch written, too late for the phase.
   */
  public static final class HangingFlushDB extends NoopDB implements BatchOutcomes {
    private Listener listener;
    private int buffered;

    @Override
    public void batchOutcomeListener(Listener listener) {
      this.listener = listener;
    }

    @Override
    public Status insert(String table, String key, Map<String, ByteIterator> values) {
      if (++buffered == 10) {
        listener.settled("INSERT", buffered, 0);
        buffered = 0;
      }
      return Status.BATCHED_OK;
    }

    @Override
    public void cleanup() {
      if (buffered > 0) {
        LockSupport.parkNanos(Long.parseLong(getProperties().getProperty("test.flushwait.ms")) * 1_000_000L);
        listener.settled("INSERT", buffered, 0);
        buffered = 0;
      }
    }
  }
}
