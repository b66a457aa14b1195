package org.geoshard.harness.observe;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.geoshard.harness.config.PropertyReader;

/**
 * What {@code trace.io} asks for: the stages whose block I/O is traced, and how.
 *
 * @param stages traced stages; empty when tracing is off (the default)
 * @param processNames process names traced when the binding names no local server process
 * @param command the bpftrace executable
 * @param dropCaches empty the page cache before each traced stage (root only), so that the trace sees
 *     what the stage reads from the disk and not what an earlier stage left in memory
 * @param probes the block tracepoints to use; empty: the newest set the kernel has ({@link BlockProbes#of})
 */
public record IoTraceSettings(Set<Stage> stages, List<String> processNames, String command, boolean dropCaches,
    Optional<BlockProbes> probes) {
  public static final String TRACE_IO = "trace.io";
  public static final String TRACE_IO_PROCESSES = "trace.io.processes";
  public static final String TRACE_IO_BPFTRACE = "trace.io.bpftrace";
  public static final String TRACE_IO_DROP_CACHES = "trace.io.dropcaches";
  public static final String TRACE_IO_PROBES = "trace.io.probes";

  public IoTraceSettings {
    stages = stages.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(stages));
    processNames = List.copyOf(processNames);
  }

  public static IoTraceSettings off() {
    return new IoTraceSettings(Set.of(), List.of(), "bpftrace", false, Optional.empty());
  }

  public boolean traces(Stage stage) {
    return stages.contains(stage);
  }

  /** Reads the properties; problems go to the reader (one sentence each). */
  public static IoTraceSettings read(PropertyReader in) {
    Set<Stage> stages = EnumSet.noneOf(Stage.class);
    String phases = in.string(TRACE_IO, "").strip();
    if (!phases.isEmpty() && !phases.equals("none")) {
      for (String label : phases.split(",")) {
        Stage s = Stage.ofLabel(label.strip());
        if (s == null) {
          in.problem("Property '" + TRACE_IO + "' lists '" + label.strip() + "'; the stages are load, after-load"
              + " and run (comma-separated), or none.");
        } else {
          stages.add(s);
        }
      }
    }
    List<String> names = new ArrayList<>();
    for (String name : in.string(TRACE_IO_PROCESSES, "").split(",")) {
      String n = name.strip();
      if (n.isEmpty()) {
        continue;
      }
      if (!n.matches("[A-Za-z0-9._-]{1,15}")) {
        in.problem("Property '" + TRACE_IO_PROCESSES + "' holds '" + n + "'; a process name has 1 to 15 letters,"
            + " digits, '.', '_' or '-' (as the kernel keeps it, e.g. mongod).");
      } else {
        names.add(n);
      }
    }
    String command = in.string(TRACE_IO_BPFTRACE, "bpftrace").strip();
    if (command.isEmpty()) {
      in.problem("Property '" + TRACE_IO_BPFTRACE + "' is empty; give the bpftrace executable.");
    }
    boolean dropCaches = in.bool(TRACE_IO_DROP_CACHES, false);
    // Forcing a set is for checking the older kernels' probes on a newer kernel (both sets exist there).
    String probeValue = in.string(TRACE_IO_PROBES, "auto").strip();
    Optional<BlockProbes> probes = Optional.empty();
    if (!probeValue.equals("auto")) {
      probes = Optional.ofNullable(BlockProbes.ofValue(probeValue));
      if (probes.isEmpty()) {
        in.problem("Property '" + TRACE_IO_PROBES + "' is '" + probeValue + "'; it is auto (the newest tracepoints"
            + " the kernel has), block_io (block_io_start/block_io_done, Linux 6.5 on) or block_rq (block_getrq/"
            + "block_rq_complete, Linux 4.x on).");
      }
    }
    return new IoTraceSettings(stages, names, command, dropCaches, probes);
  }
}
