package org.geoshard.harness.run;

import java.util.concurrent.atomic.AtomicLong;
import site.ycsb.Workload;

/**
 * One client thread: initialises its binding instance and workload state, waits for the start, runs
 * its share of operations (paced when a target rate is set), and always cleans its binding up, so
 * that a batching binding flushes what it holds.
 */
final class Worker implements Runnable {
  private final int id;
  private final int threadCount;
  private final MeasuredDB db;
  private final Workload workload;
  private final boolean load;
  private final long operations;
  private final Pacer pacer;
  private final WorkerControl control;
  private final Ticker ticker;
  /** Operations this thread performed; read after the thread ended (join orders the write). */
  private long done;
  /** Calls of the workload so far, for the status lines (a release store: no fence on the operation path). */
  private final AtomicLong calls = new AtomicLong();

  /**
   * @param operations this thread's share; 0 means until stopped
   * @param pacer the spacing of intended starts, shared by all threads
   */
  Worker(int id, int threadCount, MeasuredDB db, Workload workload, boolean load, long operations,
      Pacer pacer, WorkerControl control) {
    this.id = id;
    this.threadCount = threadCount;
    this.db = db;
    this.workload = workload;
    this.load = load;
    this.operations = operations;
    this.pacer = pacer;
    this.control = control;
    this.ticker = control.ticker();
  }

  int id() {
    return id;
  }

  long done() {
    return done;
  }

  /** How long this thread's operation in progress has waited, in ms at {@code nowNanos} (0: none). */
  long waitingMs(long nowNanos) {
    long start = db.operationStartNanos();
    return start == 0 ? 0 : Math.max(0, (nowNanos - start) / 1_000_000);
  }

  /** Calls of the workload (one per record of a load) so far, readable while the thread runs. */
  long calls() {
    return calls.get();
  }

  /** Counts this thread's operation in progress as an error (see {@link MeasuredDB#abandonInFlight()}). */
  boolean abandonInFlight() {
    return db.abandonInFlight();
  }

  /** Counts this thread's buffered, unsettled records as errors (see {@link MeasuredDB#abandonBuffered()}). */
  long abandonBuffered() {
    return db.abandonBuffered();
  }

  @Override
  public void run() {
    Object state;
    try {
      db.init();
      state = workload.initThread(control.properties(), id, threadCount);
    } catch (Exception | LinkageError e) {
      control.failedToStart(id, e);
      cleanup();
      return;
    }
    try {
      if (control.awaitStart(id)) {
        loop(state);
      }
    } catch (RuntimeException | Error e) {
      control.crashed(id, e);
    } finally {
      cleanup();
    }
  }

  private void loop(Object state) {
    long count = 0;
    long intended = ticker.nanoTime();
    boolean scheduled = true;
    try {
      while (!control.stopRequested() && (operations == 0 || count < operations)) {
        if (pacer.paused()) {
          // A group at rate 0 waits; when it resumes, its schedule starts afresh (no backlog).
          ticker.park(10_000_000L);
          intended = ticker.nanoTime();
          continue;
        }
        long interval = pacer.intervalNanos();
        if (interval > 0) {
          if (!scheduled) {
            // A schedule (re)starts from now: unpaced operations before it leave no backlog.
            intended = ticker.nanoTime();
            scheduled = true;
          }
          // A fixed schedule: a late operation does not push the ones after it (no coordinated omission).
          if (!pauseUntil(intended)) {
            break;  // the stop came while this thread waited: the operation it waited for never starts
          }
          db.intendedStart(intended);
          intended += interval;
        } else {
          // Unpaced: no clock read here (the measured call reads its own), a cost on every operation.
          db.intendedStart(0);
          scheduled = false;
        }
        boolean more = load ? workload.doInsert(db, state) : workload.doTransaction(db, state);
        count++;
        calls.lazySet(count);
        if (!more || workload.isStopRequested()) {
          break;
        }
      }
    } finally {
      done = count;
    }
  }

  /** Waits for the intended start; false when the run was stopped first (then no operation may start). */
  private boolean pauseUntil(long intendedNanos) {
    long wait;
    while ((wait = intendedNanos - ticker.nanoTime()) > 0) {
      if (control.stopRequested()) {
        return false;
      }
      ticker.park(Math.min(wait, 100_000_000L));
    }
    return !control.stopRequested();
  }

  private void cleanup() {
    try {
      db.cleanup();
    } catch (Exception | LinkageError e) {
      control.cleanupFailed(id, e);
    }
  }
}
