package org.geoshard.harness.observe;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.geoshard.harness.api.ExplainsOperations;
import org.geoshard.harness.api.ExplainsOperations.QueryExplain;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.DBException;

/**
 * Decides which operations are explained (at most {@code samples} per operation and window; a window is
 * a ramp or sweep step, or {@code observe.explain.window} seconds) and gathers the answers into the
 * {@code queryTargeting} entry of {@code run.json}: per operation, the targets (shards or partitions)
 * per query and the examined per returned, overall and per window. Shared by every client thread.
 */
public final class ExplainSampler {
  private static final Logger LOG = LoggerFactory.getLogger(ExplainSampler.class);
  /** Bits of a {@link Budget} word that hold the count (samples are at most 1000). */
  private static final int COUNT_BITS = 20;
  private static final long COUNT_MASK = (1L << COUNT_BITS) - 1;

  private final int samples;
  private final long windowNanos;
  private final LongSupplier clock;
  private volatile long startNanos;
  /** Per operation: the budget of its current window (keyed by the operation alone: no allocation per call). */
  private final Map<String, Budget> budgets = new ConcurrentHashMap<>();
  private final Map<String, List<Sample>> explained = new TreeMap<>();
  private final AtomicInteger failures = new AtomicInteger();

  private record Sample(long window, QueryExplain explain) {
  }

  /**
   * @param samples explains per operation and window, at least 1
   * @param windowNanos the window's length
   * @param clock the monotonic clock (nanoseconds)
   */
  public ExplainSampler(int samples, long windowNanos, LongSupplier clock) {
    if (samples < 1 || windowNanos < 1) {
      throw new IllegalArgumentException("samples and window must be positive: " + samples + ", " + windowNanos);
    }
    this.samples = samples;
    this.windowNanos = windowNanos;
    this.clock = clock;
    this.startNanos = clock.getAsLong();
  }

  /** The windows count from here (the start of the measured phase). */
  public void start() {
    startNanos = clock.getAsLong();
  }

  /** Called by a client thread after a successful operation: explains it when the window's budget allows. */
  public void offer(String operation, ExplainsOperations binding) {
    long window = Math.max(0, (clock.getAsLong() - startNanos) / windowNanos);
    if (!budgets.computeIfAbsent(operation, k -> new Budget()).claim(window, samples)) {
      return;
    }
    try {
      binding.explainLast().ifPresent(e -> add(operation, new Sample(window, e)));
    } catch (DBException | RuntimeException e) {
      if (failures.getAndIncrement() == 0) {
        LOG.warn("Explaining a {} request failed (further failures are counted in run.json): {}", operation,
            e.getMessage());
      }
    }
  }

  /**
   * The explains taken in an operation's current window, packed with the window into one word so that a
   * claim is one compare-and-set: the window in the high bits, the count in the low {@value #COUNT_BITS}.
   * Called on every successful operation, it allocates nothing. A thread whose clock reading is of a window
   * already passed gets nothing (that window has closed).
   */
  private static final class Budget {
    private final AtomicLong state = new AtomicLong();

    boolean claim(long window, int samples) {
      while (true) {
        long current = state.get();
        long currentWindow = current >>> COUNT_BITS;
        long count = current & COUNT_MASK;
        long next;
        if (window > currentWindow) {
          next = (window << COUNT_BITS) | 1;
        } else if (window == currentWindow && count < samples) {
          next = current + 1;
        } else {
          return false;
        }
        if (state.compareAndSet(current, next)) {
          return true;
        }
      }
    }
  }

  private synchronized void add(String operation, Sample sample) {
    explained.computeIfAbsent(operation, k -> new ArrayList<>()).add(sample);
  }

  /** The {@code queryTargeting} entry: per operation, overall and per window. */
  public synchronized Map<String, Object> toRecord() {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("windowSeconds", windowNanos / 1e9);
    out.put("samplesPerWindow", samples);
    out.put("failures", failures.get());
    Map<String, Object> ops = new LinkedHashMap<>();
    explained.forEach((op, list) -> {
      Map<String, Object> entry = summary(list);
      Map<Long, List<Sample>> byWindow = new TreeMap<>();
      list.forEach(s -> byWindow.computeIfAbsent(s.window(), k -> new ArrayList<>()).add(s));
      List<Map<String, Object>> windows = new ArrayList<>();
      byWindow.forEach((w, l) -> {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("window", w);
        m.putAll(summary(l));
        m.remove("targetCounts");
        m.remove("lastDetails");
        windows.add(m);
      });
      entry.put("windows", windows);
      ops.put(op, entry);
    });
    out.put("operations", ops);
    return out;
  }

  private static Map<String, Object> summary(List<Sample> list) {
    long examined = 0;
    long returned = 0;
    int min = Integer.MAX_VALUE;
    int max = 0;
    long targets = 0;
    Map<String, Integer> counts = new TreeMap<>();
    for (Sample s : list) {
      QueryExplain e = s.explain();
      examined += e.examined();
      returned += e.returned();
      int n = e.targets().size();
      targets += n;
      min = Math.min(min, n);
      max = Math.max(max, n);
      e.targets().forEach(t -> counts.merge(t, 1, Integer::sum));
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("samples", list.size());
    m.put("targetsPerQuery", (double) targets / list.size());
    m.put("targetsMin", min);
    m.put("targetsMax", max);
    m.put("examined", examined);
    m.put("returned", returned);
    m.put("examinedPerReturned", returned == 0 ? null : (double) examined / returned);
    m.put("targetCounts", counts);
    m.put("lastDetails", list.get(list.size() - 1).explain().details());
    return m;
  }
}
