package org.geoshard.harness.observe;

import static org.geoshard.harness.api.Throwables.describe;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.geoshard.harness.api.ServerProbe;
import org.geoshard.harness.output.RunRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server sampler: one thread that reads every node's probe once per {@code observe.interval} and
 * writes {@code servers.csv} on the harness's clock, from the start of the phase's measurement to the
 * end of its last part (the index build after a load included). The binding's nodes come from
 * {@link ProbeSource}, the node exporters from the settings.
 *
 * <p>A node that cannot be read is logged once and tried again every interval; nothing here fails
 * the run. On close, {@code run.json} gets {@code observe}: the settings, every node with its requests
 * and failures, the parts' times, and what the sampler cost (its thread's CPU time).
 */
public final class ServerObserver implements StageListener {
  private static final Logger LOG = LoggerFactory.getLogger(ServerObserver.class);
  /** A node that answers slower than this is counted as failing for that round. */
  static final Duration MAX_PROBE_TIMEOUT = Duration.ofSeconds(5);
  /**
   * How long a reading in progress is waited for after the phase was cut off, counted from the cut-off:
   * the runner's own wait for its threads runs meanwhile, so the two do not add up.
   */
  static final Duration CUT_OFF_WAIT = Duration.ofMillis(500);

  /** Gives the binding's probes; called on the sampler thread, again after a failure. */
  @FunctionalInterface
  public interface ProbeSource {
    List<ServerProbe> probes() throws Exception;
  }

  private final ObserveSettings settings;
  private final Path folder;
  private final ProbeSource bindingProbes;
  private final RunRecord record;
  private final LongSupplier epochMs;
  private final List<NodeState> nodes = new ArrayList<>();
  private final List<PartTimes> parts = new ArrayList<>();
  private ServersCsv csv;
  private Thread thread;
  private volatile boolean running;
  private volatile long originEpochMs;
  private boolean bindingProbesOpen;
  private boolean exportersOpen;
  private boolean opened;
  private boolean bindingProbesFailed;
  private long rounds;
  private long roundNanosTotal;
  private long roundNanosMax;
  private volatile long threadCpuNanos = -1;
  private boolean closed;
  /** The phase was cut off: no final reading, and a reading in progress is not waited for. */
  private volatile boolean cutOff;
  /** When it was cut off (nanoTime): the close waits what is left of {@link #CUT_OFF_WAIT} from then. */
  private volatile long cutOffNanos;
  /** Set under this object's lock when servers.csv is closed: a late answer writes nothing. */
  private boolean csvClosed;

  public ServerObserver(ObserveSettings settings, Path folder, ProbeSource bindingProbes, RunRecord record) {
    this(settings, folder, bindingProbes, record, System::currentTimeMillis);
  }

  ServerObserver(ObserveSettings settings, Path folder, ProbeSource bindingProbes, RunRecord record, LongSupplier epochMs) {
    this.settings = settings;
    this.folder = folder;
    this.bindingProbes = bindingProbes;
    this.record = record;
    this.epochMs = epochMs;
  }

  /**
   * Finds the nodes and reads each once, unrecorded, before the phase: connections, drivers and
   * classes are ready when the measurement starts (a busy load would otherwise delay the first
   * readings by seconds). What fails here is tried again, and logged, by the sampler thread.
   */
  @Override
  public synchronized void open() {
    if (opened || closed) {
      return;
    }
    opened = true;
    openBindingProbes(false);
    for (NodeState node : nodes) {
      try {
        node.probe.sample();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (Exception e) {
        LOG.debug("Warm-up reading of {} failed", node.probe.node(), e);
      }
    }
  }

  /** Second 0 is set: the sampler thread starts. */
  @Override
  public synchronized void clockStarted(long originEpochMs) {
    if (closed || thread != null || !begin(originEpochMs)) {
      return;
    }
    running = true;
    thread = new Thread(this::loop, "server-sampler");
    thread.setDaemon(true);
    thread.start();
  }

  @Override
  public synchronized void started(Stage stage) {
    if (!closed) {
      parts.add(new PartTimes(stage.label(), epochMs.getAsLong()));
    }
  }

  @Override
  public synchronized void ended(Stage stage) {
    for (int i = parts.size() - 1; i >= 0; i--) {
      PartTimes part = parts.get(i);
      if (part.label.equals(stage.label()) && part.endEpochMs < 0) {
        part.endEpochMs = epochMs.getAsLong();
        return;
      }
    }
  }

  /** When a stage started and ended (epoch ms), turned into seconds of the phase for run.json. */
  private static final class PartTimes {
    final String label;
    final long startEpochMs;
    long endEpochMs = -1;

    PartTimes(String label, long startEpochMs) {
      this.label = label;
      this.startEpochMs = startEpochMs;
    }
  }

  private Map<String, Object> partRecord(PartTimes part) {
    Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("part", part.label);
    entry.put("startS", seconds(part.startEpochMs));
    if (part.endEpochMs >= 0) {
      entry.put("endS", seconds(part.endEpochMs));
    }
    return entry;
  }

  /** Sets second 0 and opens servers.csv; false (logged) when the file cannot be written. */
  boolean begin(long originEpochMs) {
    this.originEpochMs = originEpochMs;
    try {
      csv = new ServersCsv(folder);
    } catch (IOException e) {
      LOG.error("Cannot write {} in {}; the servers are not sampled: {}", ServersCsv.FILE_NAME, folder, e.toString());
      return false;
    }
    return true;
  }

  private void loop() {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    boolean cpu = mx.isCurrentThreadCpuTimeSupported();
    long period = settings.interval().toNanos();
    long next = System.nanoTime();
    // A reading at the start and one at the end whatever the interval: every phase has its two ends.
    do {
      sampleOnce();
      next += period;
      long now = System.nanoTime();
      if (next < now) {
        next = now + period - (now - next) % period;  // a slow round skips ticks rather than bunching up
      }
      while (running && (now = System.nanoTime()) < next) {
        LockSupport.parkNanos(next - now);
      }
    } while (running);
    if (!Thread.currentThread().isInterrupted() && !cutOff) {
      sampleOnce();
    }
    if (cpu) {
      threadCpuNanos = mx.getCurrentThreadCpuTime();
    }
  }

  /** One round: every node read once, its rows written and flushed (on the sampler thread only). */
  void sampleOnce() {
    if (csv == null) {
      return;
    }
    long started = System.nanoTime();
    openBindingProbes(true);
    for (NodeState node : nodes) {
      node.requests++;
      long asked = System.nanoTime();
      try {
        Map<String, Double> metrics = node.probe.sample();
        long answered = System.nanoTime() - asked;
        node.answerNanosTotal += answered;
        node.answerNanosMax = Math.max(node.answerNanosMax, answered);
        if (!write(node, metrics)) {
          return;  // answered after the phase was cut off and the file closed
        }
        if (node.failing) {
          LOG.info("Sampling {} ({}) again.", node.probe.node(), node.probe.role());
          node.failing = false;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        running = false;
        return;
      } catch (Exception e) {
        node.failures++;
        if (!node.failing && !cutOff) {  // after a cut-off the server's silence is no news
          node.failing = true;
          LOG.warn("Cannot sample {} ({}): {}; trying again every {} s, the run goes on.", node.probe.node(),
              node.probe.role(), describe(e), settings.interval().toMillis() / 1000.0);
        }
      }
    }
    try {
      synchronized (this) {
        if (!csvClosed) {
          csv.flush();
        }
      }
    } catch (IOException e) {
      LOG.error("Cannot write {}: {}; the servers are no longer sampled.", ServersCsv.FILE_NAME, e.toString());
      running = false;
    }
    long took = System.nanoTime() - started;
    rounds++;
    roundNanosTotal += took;
    roundNanosMax = Math.max(roundNanosMax, took);
  }

  private synchronized boolean write(NodeState node, Map<String, Double> metrics) throws IOException {
    if (csvClosed) {
      return false;
    }
    csv.write(seconds(epochMs.getAsLong()), node.probe.node(), node.probe.role(), metrics);
    return true;
  }

  @Override
  public void cutOff() {
    cutOffNanos = System.nanoTime();
    cutOff = true;
    running = false;
  }

  /** Opens the probes not yet open; {@code log}: say so when the binding's nodes cannot be found. */
  private void openBindingProbes(boolean log) {
    if (bindingProbesOpen) {
      return;
    }
    if (!exportersOpen) {
      // Here, on the sampler thread: the first HTTP client costs a second of class loading.
      exportersOpen = true;
      Duration timeout = settings.interval().compareTo(MAX_PROBE_TIMEOUT) < 0 ? MAX_PROBE_TIMEOUT : settings.interval();
      for (String endpoint : settings.nodeExporters()) {
        nodes.add(new NodeState(new NodeExporterProbe(endpoint, timeout)));
      }
    }
    try {
      List<ServerProbe> probes = bindingProbes.probes();
      bindingProbesOpen = true;
      int at = 0;
      for (ServerProbe probe : probes) {
        nodes.add(at++, new NodeState(probe));  // the database's nodes first, then the hosts
      }
      if (bindingProbesFailed) {
        LOG.info("Sampling the database's nodes again.");
      }
    } catch (Exception e) {
      if (!log) {
        LOG.debug("The database's nodes are not known yet", e);
      } else if (!bindingProbesFailed) {
        bindingProbesFailed = true;
        LOG.warn("Cannot find the database's nodes to sample: {}; trying again every {} s, the run goes on.",
            describe(e), settings.interval().toMillis() / 1000.0);
      }
    }
  }

  /** Seconds since the phase's second 0. */
  private double seconds(long epoch) {
    return (epoch - originEpochMs) / 1000.0;
  }

  /** Stops the thread, closes every probe and the file, and records the sampler in run.json. */
  @Override
  public void close() {
    Thread t;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      running = false;
      t = thread;
    }
    if (t != null) {
      LockSupport.unpark(t);
      // A reading in progress when the phase was cut off may wait on a stalled server: not waited for.
      Duration wait = cutOff ? CUT_OFF_WAIT.minusNanos(System.nanoTime() - cutOffNanos)
          : MAX_PROBE_TIMEOUT.multipliedBy(2).plus(settings.interval());
      join(t, wait);
      if (t.isAlive()) {
        LOG.warn("The server sampler is still waiting for an answer {} ms after the phase {}; servers.csv ends at"
            + " its last reading.", cutOff ? CUT_OFF_WAIT.toMillis() : wait.toMillis(), cutOff ? "was cut off" : "ended");
      }
    }
    synchronized (this) {
      for (NodeState node : nodes) {
        try {
          node.probe.close();
        } catch (RuntimeException e) {
          LOG.debug("Closing the probe of {} failed", node.probe.node(), e);
        }
      }
      if (csv != null) {
        csvClosed = true;
        try {
          csv.close();
        } catch (IOException e) {
          LOG.error("Cannot close {}: {}", ServersCsv.FILE_NAME, e.toString());
        }
      }
      record.put("observe", summary());
    }
  }

  private static void join(Thread thread, Duration wait) {
    try {
      thread.join(Math.max(1, wait.toMillis()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  synchronized Map<String, Object> summary() {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("intervalSeconds", settings.interval().toMillis() / 1000.0);
    out.put("nodeExporters", settings.nodeExporters());
    out.put("file", csv == null ? null : ServersCsv.FILE_NAME);
    List<Map<String, Object>> list = new ArrayList<>();
    for (NodeState node : nodes) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("node", node.probe.node());
      entry.put("role", node.probe.role());
      entry.put("requests", node.requests);
      entry.put("failures", node.failures);
      long answers = node.requests - node.failures;
      entry.put("meanAnswerMicros", answers == 0 ? 0 : node.answerNanosTotal / answers / 1000);
      entry.put("maxAnswerMicros", node.answerNanosMax / 1000);
      list.add(entry);
    }
    out.put("nodes", list);
    out.put("parts", parts.stream().map(this::partRecord).toList());
    out.put("rounds", rounds);
    out.put("meanRoundMicros", rounds == 0 ? 0 : roundNanosTotal / rounds / 1000);
    out.put("maxRoundMicros", roundNanosMax / 1000);
    if (threadCpuNanos >= 0) {
      out.put("cpuMillis", TimeUnit.NANOSECONDS.toMillis(threadCpuNanos));
    }
    return out;
  }

  private static final class NodeState {
    final ServerProbe probe;
    long requests;
    long failures;
    long answerNanosTotal;
    long answerNanosMax;
    boolean failing;

    NodeState(ServerProbe probe) {
      this.probe = probe;
    }
  }
}
