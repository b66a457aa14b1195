package org.geoshard.mongodb.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.geoshard.harness.cli.LoadAverage;

/**
 * The bare driver's closed loop: {@code threads} threads, each reading one key after the other for a
 * fixed time, counting reads that found their record and reads that did not or failed. No harness, no
 * histogram, no clock read per read: what any program using the driver does at the least.
 */
final class BareLoop {
  private final int threads;
  private volatile boolean stopped;
  /** The first read that threw, said when the run had failures. */
  private final AtomicReference<RuntimeException> firstFailure = new AtomicReference<>();

  BareLoop(int threads) {
    this.threads = threads;
  }

  /**
   * @param readerOfThread gives each thread its read (key to found), made on that thread
   * @param keysOfThread gives each thread its key chooser
   */
  ClientRun run(String client, double seconds, Supplier<Predicate<String>> readerOfThread,
      Supplier<YcsbKeys> keysOfThread) throws InterruptedException {
    LongAdder found = new LongAdder();
    LongAdder failed = new LongAdder();
    List<Thread> running = new ArrayList<>();
    long cpuBefore = ProcessCpu.nanos();
    long started = System.nanoTime();
    long deadline = started + Math.round(seconds * 1e9);
    for (int i = 0; i < threads; i++) {
      Thread thread = new Thread(() -> {
        Predicate<String> read = readerOfThread.get();
        YcsbKeys keys = keysOfThread.get();
        long ok = 0;
        long bad = 0;
        // The deadline is looked at every 16 reads: a clock read per read would be a cost the harness pays, not the loop.
        for (int n = 0; !stopped && ((n & 15) != 0 || System.nanoTime() < deadline); n++) {
          boolean answered;
          try {
            answered = read.test(keys.next());
          } catch (RuntimeException e) {
            firstFailure.compareAndSet(null, e);
            answered = false;
          }
          if (answered) {
            ok++;
          } else {
            bad++;
          }
        }
        found.add(ok);
        failed.add(bad);
      }, "bare-" + i);
      running.add(thread);
      thread.start();
    }
    for (Thread thread : running) {
      thread.join();
    }
    double elapsed = (System.nanoTime() - started) / 1e9;
    return new ClientRun(client, found.sum(), failed.sum(), elapsed, ProcessCpu.nanos() - cpuBefore,
        LoadAverage.oneMinute());
  }

  /** What the first failed read threw, or "reads found nothing" when none threw. */
  String firstFailure() {
    RuntimeException e = firstFailure.get();
    return e == null ? "reads found nothing" : e.toString();
  }

  /** Ends the loop early (Ctrl-C); the threads finish the read they are in. */
  void stop() {
    stopped = true;
  }
}
