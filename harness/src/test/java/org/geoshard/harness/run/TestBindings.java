package org.geoshard.harness.run;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.geoshard.harness.api.HarnessDB;
import org.geoshard.harness.api.RequiresContracts;
import org.geoshard.harness.api.WatchesStages;
import org.geoshard.harness.binding.NoopDB;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.Workload;

/** Small bindings and workloads that exercise the runner's lifecycle; test helpers only. */
final class TestBindings {
  /** Records flushed by {@link BufferingDB}, per value of its {@code test.sink} property. */
  static final Map<String, ConcurrentLinkedQueue<String>> SINKS = new ConcurrentHashMap<>();

  private TestBindings() {
  }

  /** Buffers inserts in batches of 7 and flushes the rest in cleanup, as a batching binding does. */
  public static final class BufferingDB extends NoopDB {
    private final List<String> buffer = new ArrayList<>();

    @Override
    public Status insert(String table, String key, Map<String, ByteIterator> values) {
      buffer.add(key);
      if (buffer.size() == 7) {
        flush();
        return Status.OK;
      }
      return Status.BATCHED_OK;
    }

    @Override
    public void cleanup() {
      flush();
    }

    private void flush() {
      SINKS.computeIfAbsent(getProperties().getProperty("test.sink"), k -> new ConcurrentLinkedQueue<>()).addAll(buffer);
      buffer.clear();
    }
  }

  /** Every third read finds no record (NOT_FOUND), every fifth other one fails (ERROR); the rest succeed. */
  public static final class MissingKeysDB extends NoopDB {
    private final AtomicLong reads = new AtomicLong();

    @Override
    public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
      long n = reads.incrementAndGet();
      return n % 3 == 0 ? Status.NOT_FOUND : n % 5 == 0 ? Status.ERROR : Status.OK;
    }
  }

  /** Every third read returns an error; every update throws. */
  public static final class FailingDB extends NoopDB {
    private final AtomicLong reads = new AtomicLong();

    @Override
    public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
      return reads.incrementAndGet() % 3 == 0 ? Status.ERROR : Status.OK;
    }

    @Override
    public Status update(String table, String key, Map<String, ByteIterator> values) {
      throw new IllegalStateException("update exploded");
    }
  }

  /** Latches that {@link StalledDB} waits on, per value of its {@code test.stall} property. */
  static final Map<String, java.util.concurrent.CountDownLatch> STALLS = new ConcurrentHashMap<>();

  /** The latch of one {@code test.stall} value; counting it down ends that stall. */
  static java.util.concurrent.CountDownLatch stall(String name) {
    return STALLS.computeIfAbsent(name, k -> new java.util.concurrent.CountDownLatch(1));
  }

  /**
   * Every read after a thread's first {@code test.stall.after} (default 10) waits until the test opens
   * its {@code test.stall} latch (a server that accepts requests and never answers; the latch only lets
   * the test end its threads, and a late answer must not be counted a second time).
   */
  public static class StalledDB extends NoopDB {
    private int reads;

    @Override
    public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
      if (++reads > Integer.parseInt(getProperties().getProperty("test.stall.after", "10"))) {
        try {
          stall(getProperties().getProperty("test.stall")).await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return Status.OK;
    }
  }

  /**
   * A {@link StalledDB} that watches its stages: every call of its watch goes to the sink named by
   * {@code test.sink} ("started run", "ended run", "close"); each stage's finding is a warning.
   */
  public static final class WatchingDB extends StalledDB implements WatchesStages {
    @Override
    public StageWatch stageWatch() {
      ConcurrentLinkedQueue<String> sink = SINKS.computeIfAbsent(getProperties().getProperty("test.sink"),
          k -> new ConcurrentLinkedQueue<>());
      return new StageWatch() {
        @Override
        public String field() {
          return "testWatch";
        }

        @Override
        public void started(String stage) {
          sink.add("started " + stage);
        }

        @Override
        public Map<String, Object> ended(String stage, java.time.Instant start, java.time.Instant end) {
          sink.add("ended " + stage);
          return Map.of("millis", end.toEpochMilli() - start.toEpochMilli(), "warning", "something moved");
        }

        @Override
        public void close() {
          sink.add("close");
        }
      };
    }
  }

  /** Every read takes {@code test.read.ms} (a slow server that still answers). */
  public static final class SlowDB extends NoopDB {
    @Override
    public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
      try {
        Thread.sleep(Long.parseLong(getProperties().getProperty("test.read.ms")));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return Status.ERROR;
      }
      return Status.OK;
    }
  }

  /** Cannot connect. */
  public static final class UnreachableDB extends NoopDB {
    @Override
    public void init() throws DBException {
      throw new DBException("no server reachable at localhost:1");
    }
  }

  /** A binding contract beyond YCSB's five operations. */
  public interface Pinger {
    boolean ping();
  }

  public static final class PingDB extends NoopDB implements Pinger {
    @Override
    public boolean ping() {
      return true;
    }
  }

  /** Calls the binding's {@link Pinger} through the harness, measured as PING. */
  public static final class PingWorkload extends Workload implements RequiresContracts {
    @Override
    public boolean doInsert(DB db, Object threadState) {
      return doTransaction(db, threadState);
    }

    @Override
    public boolean doTransaction(DB db, Object threadState) {
      HarnessDB harness = HarnessDB.from(db);
      Pinger pinger = harness.require(Pinger.class);
      harness.measure("PING", () -> pinger.ping() ? Status.OK : Status.ERROR);
      return true;
    }

    @Override
    public Set<Class<?>> requiredContracts(boolean loadPhase) {
      return Set.of(Pinger.class);
    }
  }

  /** Thread 1 crashes after 50 operations; the others run their share. */
  public static final class CrashingWorkload extends Workload {
    @Override
    public Object initThread(java.util.Properties p, int threadId, int threadCount) {
      return new int[] {threadId, 0};
    }

    @Override
    public boolean doInsert(DB db, Object threadState) {
      return doTransaction(db, threadState);
    }

    @Override
    public boolean doTransaction(DB db, Object threadState) {
      int[] state = (int[]) threadState;
      if (state[0] == 1 && ++state[1] > 50) {
        throw new IllegalStateException("workload bug");
      }
      return db.read("t", "k", null, new HashMap<>()).isOk();
    }
  }
}
