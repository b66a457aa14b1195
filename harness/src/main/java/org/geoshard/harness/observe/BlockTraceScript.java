package org.geoshard.harness.observe;

import java.util.ArrayList;
import java.util.List;

/**
 * The bpftrace program that traces block requests of chosen processes: each request is remembered
 * when it starts ({@code block_io_start}, in the submitting process) and printed when it is done, one
 * comma-separated line: start (monotonic ns), device major, minor, sector, bytes, rwbs, pid, process,
 * latency (ns). Issue and completion are paired by device and sector, as bcc's biosnoop does.
 */
public final class BlockTraceScript {
  /** The first line the program prints: the monotonic clock when it began. */
  public static final String ANCHOR = "# anchor ";

  private BlockTraceScript() {
  }

  /**
   * @param pids root processes: these and their direct children are traced (PostgreSQL's postmaster
   *     and its backends)
   * @param names process names (comm) traced wherever they run (e.g. {@code mongod})
   */
  public static String program(List<Long> pids, List<String> names) {
    if (pids.isEmpty() && names.isEmpty()) {
      throw new IllegalArgumentException("Nothing to trace: no process id and no process name.");
    }
    List<String> terms = new ArrayList<>();
    for (long pid : pids) {
      terms.add("pid == " + pid + " || curtask->real_parent->tgid == " + pid);
    }
    for (String name : names) {
      if (!name.matches("[A-Za-z0-9._-]{1,15}")) {
        throw new IllegalArgumentException("A process name has 1 to 15 letters, digits, '.', '_' or '-': " + name);
      }
      terms.add("comm == \"" + name + "\"");
    }
    String key = "[args->dev, args->sector]";
    return "BEGIN { printf(\"" + ANCHOR + "%llu\\n\", nsecs); }\n"
        + "tracepoint:block:block_io_start /" + String.join(" || ", terms) + "/ {\n"
        + "  @start" + key + " = nsecs; @bytes" + key + " = args->bytes; @pid" + key + " = pid;\n"
        + "  @comm" + key + " = comm; @rwbs" + key + " = args->rwbs;\n"
        + "}\n"
        + "tracepoint:block:block_io_done /@start" + key + "/ {\n"
        + "  $s = @start" + key + ";\n"
        + "  printf(\"%llu,%u,%u,%llu,%u,%s,%d,%s,%llu\\n\", $s, args->dev >> 20, args->dev & 0xfffff, args->sector,\n"
        + "    @bytes" + key + ", @rwbs" + key + ", @pid" + key + ", @comm" + key + ", nsecs - $s);\n"
        + "  delete(@start" + key + "); delete(@bytes" + key + "); delete(@pid" + key + ");\n"
        + "  delete(@comm" + key + "); delete(@rwbs" + key + ");\n"
        + "}\n"
        // Requests still in flight at the end are dropped silently, not dumped as maps.
        + "END { clear(@start); clear(@bytes); clear(@pid); clear(@comm); clear(@rwbs); }\n";
  }
}
