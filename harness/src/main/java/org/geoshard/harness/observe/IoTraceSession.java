package org.geoshard.harness.observe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.geoshard.harness.output.RunRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Traces the block I/O of the database's local processes around the stages {@code trace.io} names,
 * into {@code io/<node>.csv} of the run folder, with a summary per stage in {@code run.json} under
 * {@code io}. Where tracing is not possible (no bpftrace, no permission, no local database process)
 * it says so in one line and in {@code run.json}, and the phase goes on untraced.
 */
public final class IoTraceSession implements StageListener {
  private static final Logger LOG = LoggerFactory.getLogger(IoTraceSession.class);
  static final Path TRACEFS = Path.of("/sys/kernel/tracing");
  private static final Path DROP_CACHES = Path.of("/proc/sys/vm/drop_caches");

  /** Who to trace: the database's root processes on this machine and the node's name. */
  public record Targets(List<Long> pids, String node) {
    public Targets {
      pids = List.copyOf(pids);
    }
  }

  /** Finds the targets, once, when the first traced stage starts. */
  @FunctionalInterface
  public interface TargetSource {
    Targets find() throws Exception;
  }

  private final IoTraceSettings settings;
  private final Path runFolder;
  private final RunRecord record;
  private final TargetSource source;
  private final Map<String, Object> io = new LinkedHashMap<>();
  private final List<Map<String, Object>> traces = new ArrayList<>();
  private Targets targets;
  private BlockTracer tracer;
  private boolean unavailable;

  public IoTraceSession(IoTraceSettings settings, Path runFolder, RunRecord record, TargetSource source) {
    this.settings = settings;
    this.runFolder = runFolder;
    this.record = record;
    this.source = source;
  }

  @Override
  public void started(Stage stage) {
    if (!settings.traces(stage) || unavailable) {
      return;
    }
    try {
      if (targets == null) {
        targets = resolveTargets();
      }
      mountTracefs();
      BlockProbes probes = settings.probes().isPresent() ? settings.probes().get()
          : BlockProbes.of(TRACEFS.resolve("events").resolve("block"));
      if (settings.dropCaches()) {
        dropCaches();
      }
      tracer = BlockTracer.start(settings.command(),
          BlockTraceScript.program(targets.pids(), settings.processNames(), probes), csv(), stage.label());
      LOG.info("Tracing block I/O of {} during {} into {} ({}{})", describe(targets), stage.label(),
          runFolder.relativize(csv()), String.join(", ", probes.tracepoints()),
          settings.probes().isPresent() ? ", as " + IoTraceSettings.TRACE_IO_PROBES + " asks" : "");
    } catch (Exception e) {
      unavailable = true;
      String reason = e.getMessage();
      LOG.warn("Block I/O is not traced (trace.io): {}; the run goes on.", reason);
      io.put("status", "not traced");
      io.put("reason", reason);
      record.put("io", io);
    }
  }

  @Override
  public void ended(Stage stage) {
    if (tracer == null) {
      return;
    }
    BlockTracer t = tracer;
    tracer = null;
    try {
      BlockTrace trace = t.stop();
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("stage", stage.label());
      entry.put("node", targets.node());
      entry.put("file", runFolder.relativize(csv()).toString());
      entry.put("probes", trace.probes());
      entry.put("neverCompleted", trace.neverCompleted());
      entry.putAll(IoSummary.of(trace.requests()));
      traces.add(entry);
      io.put("status", "traced");
      io.put("traces", traces);
      record.put("io", io);
      LOG.info("Block I/O during {}: {} requests, {} bytes; {} started but not seen to complete", stage.label(),
          entry.get("requests"), entry.get("bytes"), trace.neverCompleted() == null ? "unknown how many"
              : trace.neverCompleted());
    } catch (IOException | RuntimeException e) {
      LOG.warn("The block I/O trace of {} could not be read: {}", stage.label(), e.getMessage());
      io.put("status", "failed");
      io.put("reason", e.getMessage());
      record.put("io", io);
    }
  }

  private Targets resolveTargets() throws Exception {
    Targets found = source.find();
    if (found.pids().isEmpty() && settings.processNames().isEmpty()) {
      throw new IllegalStateException("the binding names no database process on this machine; set "
          + IoTraceSettings.TRACE_IO_PROCESSES + " to the server's process names (e.g. mongod)");
    }
    return found;
  }

  private Path csv() {
    return runFolder.resolve("io").resolve(safe(targets.node()) + ".csv");
  }

  static String safe(String node) {
    String s = node.replaceAll("[^A-Za-z0-9._-]+", "_");
    return s.isEmpty() ? "node" : s;
  }

  private String describe(Targets t) {
    List<String> parts = new ArrayList<>();
    t.pids().forEach(p -> parts.add("process " + p + " and its children"));
    settings.processNames().forEach(n -> parts.add("'" + n + "' processes"));
    return String.join(", ", parts);
  }

  /** Writes dirty pages out, then empties the page cache; a refusal is logged, never fatal. */
  private static void dropCaches() throws InterruptedException {
    try {
      new ProcessBuilder("sync").inheritIO().start().waitFor();
      Files.writeString(DROP_CACHES, "3");
      LOG.info("Dropped the page cache before tracing ({}).", IoTraceSettings.TRACE_IO_DROP_CACHES);
    } catch (IOException e) {
      LOG.warn("Could not drop the page cache ({} needs root): {}", IoTraceSettings.TRACE_IO_DROP_CACHES,
          e.getMessage());
    }
  }

  /** tracefs holds the block tracepoints; mounted when missing and we may (as root). */
  private static void mountTracefs() throws IOException, InterruptedException {
    if (Files.isDirectory(TRACEFS.resolve("events")) || !Files.isDirectory(TRACEFS)) {
      return;
    }
    Process p = new ProcessBuilder("mount", "-t", "tracefs", "nodev", TRACEFS.toString())
        .redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
    if (p.waitFor() != 0) {
      LOG.debug("mount -t tracefs failed: {}", out);
    }
  }
}
