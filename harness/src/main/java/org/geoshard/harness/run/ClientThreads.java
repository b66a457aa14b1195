package org.geoshard.harness.run;

import static org.geoshard.harness.api.Throwables.describe;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.geoshard.harness.measure.StopReason;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.Workload;

/**
 * The client threads of one phase: started behind one gate, joined with a grace, and those that
 * outlive it abandoned (their operation in progress counted as an error). The main threads do the
 * phase's work; the thread groups' threads run beside them until the phase stops.
 */
final class ClientThreads {
  /** Logged as the runner: the user's log lines name the runner, as before the threads had an owner. */
  private static final Logger LOG = LoggerFactory.getLogger(Runner.class);
  /** How long a phase that ends at its count or time waits for operations in flight and the bindings' flush. */
  static final Duration STOP_GRACE = Duration.ofSeconds(30);
  /**
   * The same wait after Ctrl-C, SIGTERM or a give-up: the user or the watch has decided that the phase
   * ends now, and a stalled server would otherwise hold the exit for the whole grace.
   */
  static final Duration ABANDON_GRACE = Duration.ofMillis(500);

  /** Makes the measured binding instance of client thread {@code id}. */
  @FunctionalInterface
  interface Databases {
    MeasuredDB create(int id, MeasurementInterval interval);
  }

  private final Workload workload;
  private final boolean load;
  private final int threadCount;
  private final Databases databases;
  private final StopSignal stop;
  /** The clock of the waits for the threads (the grace when joining). */
  private final Ticker clock;
  private final WorkerControl control;
  private final CountDownLatch startGate = new CountDownLatch(1);
  /** One permit per thread initialised (or failed to): the first ones are awaited before the start. */
  private final Semaphore ready = new Semaphore(0);
  private final AtomicInteger running = new AtomicInteger();
  private final AtomicInteger crashed = new AtomicInteger();
  private final AtomicReference<Throwable> startFailure = new AtomicReference<>();
  private final List<Worker> workers = new CopyOnWriteArrayList<>();
  private final List<Thread> threads = new CopyOnWriteArrayList<>();
  private final List<Thread> mainThreads = new CopyOnWriteArrayList<>();

  /**
   * @param threadCount what each thread's workload state is told the thread count is ({@code clientthreads})
   * @param schedule the clock and the wait of the threads' schedule (and of their latencies)
   * @param clock the clock of the waits for the threads (the grace when joining)
   */
  ClientThreads(Workload workload, boolean load, int threadCount, Databases databases, Properties properties,
      StopSignal stop, Ticker schedule, Ticker clock) {
    this.workload = workload;
    this.load = load;
    this.threadCount = threadCount;
    this.databases = databases;
    this.stop = stop;
    this.clock = clock;
    this.control = new Control(properties, schedule);
    stop.whenStopped(startGate::countDown);  // threads still waiting for the start end at once
  }

  /**
   * Starts {@code count} more main threads. With a planned operation count the threads share it as
   * YCSB does ({@code planned / count}, the first {@code planned % count} threads one more).
   */
  void startMain(int count, long planned, Pacer pacer, MeasurementInterval interval) {
    mainThreads.addAll(start(count, planned, pacer, interval));
  }

  /** Starts a thread group's threads: paced, measured from the intended start, until the phase stops. */
  void startGroup(int count, Pacer pacer) {
    // Paced groups are measured from the intended start: a slow database must not slow their schedule.
    start(count, 0, pacer, MeasurementInterval.INTENDED);
  }

  private List<Thread> start(int count, long planned, Pacer pacer, MeasurementInterval interval) {
    int first = workers.size();
    List<Thread> started = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int id = first + i;
      long share = planned / count + (i < planned % count ? 1 : 0);
      Worker worker = new Worker(id, threadCount, databases.create(id, interval), workload, load, share, pacer,
          control);
      Thread thread = new Thread(() -> {
        running.incrementAndGet();
        try {
          worker.run();
        } finally {
          running.decrementAndGet();
        }
      }, "client-" + id);
      thread.setDaemon(true);
      workers.add(worker);
      threads.add(thread);
      started.add(thread);
    }
    started.forEach(Thread::start);
    return started;
  }

  /** Waits until every thread started so far has initialised (or failed to); an interrupt stops the phase. */
  void awaitReady() {
    try {
      ready.acquire(workers.size());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stop.stop(StopReason.INTERRUPTED);
    }
  }

  /** Lets the threads begin their operations. */
  void open() {
    startGate.countDown();
  }

  /** Waits up to {@code millis} for the main threads to end; true when none runs any more. */
  boolean awaitMainThreads(long millis) throws InterruptedException {
    long deadline = clock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    for (Thread thread : mainThreads) {
      long left = deadline - clock.nanoTime();
      if (left <= 0) {
        break;
      }
      thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
    }
    return mainThreadsEnded();
  }

  /**
   * Waits for every thread after the stop: up to {@code grace} when the phase ended at its count or
   * time, at most {@link #ABANDON_GRACE} when it was cut off. True when all ended.
   */
  boolean joinAfterStop(Duration grace, boolean cutOff) {
    return join(cutOff && ABANDON_GRACE.compareTo(grace) < 0 ? ABANDON_GRACE : grace);
  }

  /**
   * Waits up to {@code grace} for every thread to end. A thread still inside an operation then has it
   * counted as an error; one still inside its binding (its cleanup) is only said. True when all ended.
   */
  boolean join(Duration grace) {
    long deadline = clock.nanoTime() + grace.toNanos();
    int inOperation = 0;
    int inBinding = 0;
    long buffered = 0;
    for (int i = 0; i < threads.size(); i++) {
      Thread thread = threads.get(i);
      try {
        thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - clock.nanoTime())));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (thread.isAlive()) {
        if (workers.get(i).abandonInFlight()) {
          inOperation++;
        } else {
          inBinding++;
        }
        buffered += workers.get(i).abandonBuffered();
      }
    }
    // One line for all of them: a stalled server holds every thread (forty lines would say one thing).
    if (inOperation > 0) {
      LOG.warn("{} of {} threads were still inside an operation {} ms after the stop; those operations are counted"
          + " as errors.", inOperation, threads.size(), grace.toMillis());
    }
    if (inBinding > 0) {
      LOG.warn("{} of {} threads were still inside their binding (cleanup: data it buffered may be lost) {} ms after"
          + " the stop.", inBinding, threads.size(), grace.toMillis());
    }
    if (buffered > 0) {
      LOG.warn("{} records those threads buffered were never reported written; they are counted as errors.", buffered);
    }
    return inOperation + inBinding == 0;
  }

  /** The first failure of a thread to initialise, or null. */
  Throwable startFailure() {
    return startFailure.get();
  }

  /** True once a thread failed to initialise or crashed. */
  boolean failed() {
    return startFailure.get() != null || crashed.get() > 0;
  }

  int crashed() {
    return crashed.get();
  }

  /** Threads inside their run now (the sampler's thread count). */
  int running() {
    return running.get();
  }

  int started() {
    return workers.size();
  }

  int mainThreads() {
    return mainThreads.size();
  }

  /** True when no main thread runs any more (thread groups run until the phase stops). */
  boolean mainThreadsEnded() {
    return mainThreads.stream().noneMatch(Thread::isAlive);
  }

  /** Operations performed by all threads; read after they ended. */
  long operationsDone() {
    return workers.stream().mapToLong(Worker::done).sum();
  }

  /** Calls of the workload so far by the first {@code count} threads (readable while they run). */
  long calls(int count) {
    return workers.stream().limit(count).mapToLong(Worker::calls).sum();
  }

  /** How long the longest operation in progress has waited (a stalled server: every thread waits). */
  long longestWaitMs() {
    long now = control.ticker().nanoTime();
    return workers.stream().mapToLong(w -> w.waitingMs(now)).max().orElse(0);
  }

  /** The one view the threads have of their owner. */
  private final class Control implements WorkerControl {
    private final Properties properties;
    private final Ticker schedule;

    Control(Properties properties, Ticker schedule) {
      this.properties = properties;
      this.schedule = schedule;
    }

    @Override
    public Properties properties() {
      return properties;
    }

    @Override
    public Ticker ticker() {
      return schedule;
    }

    @Override
    public boolean stopRequested() {
      return stop.requested();
    }

    @Override
    public boolean awaitStart(int id) {
      ready.release();
      try {
        startGate.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
      return !stop.requested();
    }

    @Override
    public void failedToStart(int id, Throwable e) {
      // The launcher reports the first failure once; the details are for debugging.
      if (startFailure.compareAndSet(null, e)) {
        LOG.debug("Thread {} could not initialise", id, e);
      }
      ready.release();
    }

    @Override
    public void crashed(int id, Throwable e) {
      crashed.incrementAndGet();
      LOG.error("Thread {} crashed; what it measured is kept, the other threads go on: {}", id, e.toString(), e);
    }

    @Override
    public void cleanupFailed(int id, Throwable e) {
      crashed.incrementAndGet();
      LOG.error("Thread {} could not clean its binding up (data it buffered may be lost): {}", id, describe(e), e);
    }
  }
}
