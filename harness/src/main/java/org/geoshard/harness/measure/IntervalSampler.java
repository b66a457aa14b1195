package org.geoshard.harness.measure;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cuts the measurements into fixed intervals (one second in a run) on a thread of its own and hands
 * each {@link Interval} to the listeners. Intervals are scheduled from the start time, not from the
 * previous sample, so that they do not drift; {@link #stop()} takes a last, possibly short, interval
 * so that nothing recorded is lost.
 */
public final class IntervalSampler {
  private static final Logger LOG = LoggerFactory.getLogger(IntervalSampler.class);

  private final Meters meters;
  private final long periodNanos;
  private final IntSupplier threads;
  private final List<IntervalListener> listeners = new CopyOnWriteArrayList<>();
  private final Object sampleLock = new Object();
  private volatile boolean running;
  private Thread thread;
  private long startNanos;
  private long startEpochMs;
  private long index;
  private long lastEndEpochMs;
  private long sampled;
  private long totalCostNanos;
  private long maxCostNanos;

  public IntervalSampler(Meters meters, long period, TimeUnit unit, IntSupplier threads) {
    if (period <= 0) {
      throw new IllegalArgumentException("period must be positive: " + period);
    }
    this.meters = meters;
    this.periodNanos = unit.toNanos(period);
    this.threads = threads;
  }

  public void addListener(IntervalListener listener) {
    listeners.add(listener);
  }

  /** Starts sampling; the first interval begins now. Returns the start time in epoch milliseconds. */
  public synchronized long start() {
    if (thread != null) {
      throw new IllegalStateException("already started");
    }
    startNanos = System.nanoTime();
    startEpochMs = System.currentTimeMillis();
    lastEndEpochMs = startEpochMs;
    // Drop what was recorded before the start (e.g. during warm-up of the binding's init).
    meters.sampleAll();
    running = true;
    thread = new Thread(this::loop, "interval-sampler");
    thread.setDaemon(true);
    thread.start();
    return startEpochMs;
  }

  public long startEpochMs() {
    return startEpochMs;
  }

  /** Stops the thread, takes the last interval and closes the listeners. Idempotent. */
  public synchronized void stop() {
    if (thread == null || !running) {
      return;
    }
    running = false;
    LockSupport.unpark(thread);
    try {
      thread.join(TimeUnit.NANOSECONDS.toMillis(periodNanos) + 10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    sampleOnce();
    for (IntervalListener listener : listeners) {
      try {
        listener.close();
      } catch (Exception e) {
        LOG.error("Could not close {}: {}", listener.getClass().getSimpleName(), e.toString(), e);
      }
    }
  }

  private void loop() {
    long next = startNanos + periodNanos;
    while (running) {
      long wait = next - System.nanoTime();
      if (wait > 0) {
        LockSupport.parkNanos(this, wait);
        continue;
      }
      sampleOnce();
      next += periodNanos;
    }
  }

  /** How long taking one interval and running every listener took: {count, mean ns, max ns}. */
  public long[] cost() {
    synchronized (sampleLock) {
      return new long[] {sampled, sampled == 0 ? 0 : totalCostNanos / sampled, maxCostNanos};
    }
  }

  private void sampleOnce() {
    synchronized (sampleLock) {
      long began = System.nanoTime();
      long end = System.currentTimeMillis();
      List<IntervalSample> samples = meters.sampleAll();
      Interval interval = new Interval(++index, lastEndEpochMs, end, threads.getAsInt(), samples);
      lastEndEpochMs = end;
      for (IntervalListener listener : listeners) {
        try {
          listener.onInterval(interval);
        } catch (Exception e) {
          // A failing listener (say, a full disk) must not stop the others or the run.
          LOG.error("{} failed on interval {}: {}", listener.getClass().getSimpleName(), interval.index(), e.toString(), e);
        }
      }
      long cost = System.nanoTime() - began;
      sampled++;
      totalCostNanos += cost;
      maxCostNanos = Math.max(maxCostNanos, cost);
    }
  }
}
