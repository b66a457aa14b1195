package org.geoshard.harness.observe;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The bpftrace program that traces block requests of chosen processes, with the probes the kernel has
 * ({@link BlockProbes}): each request is remembered where it starts (in the submitting process, where
 * the traced processes are chosen), given its final size and flags where it is issued (after every
 * back-merge; a front merge moves its first sector, and its entries with it) and printed when it is done, one comma-separated line: start (monotonic ns), device major,
 * minor, sector, bytes, rwbs, pid, process, latency (ns, start to completion). Start, issue and
 * completion are paired by device and sector, as bcc's biosnoop does. At its end it prints how many
 * requests started and how many of them completed ({@link #COUNTS}).
 */
public final class BlockTraceScript {
  /** The first line the program prints: the monotonic clock when it began. */
  public static final String ANCHOR = "# anchor ";
  /** The last line: {@code # requests <started> started, <completed> completed}. */
  public static final String COUNTS = "# requests ";

  private static final Pattern TRACEPOINT = Pattern.compile("^tracepoint:block:(\\w+)", Pattern.MULTILINE);

  private BlockTraceScript() {
  }

  /** The block tracepoints a program attaches, in its order: what a trace records it used. */
  public static List<String> tracepoints(String program) {
    List<String> found = new ArrayList<>();
    Matcher m = TRACEPOINT.matcher(program);
    while (m.find()) {
      found.add(m.group(1));
    }
    return List.copyOf(found);
  }

  /**
   * @param pids root processes: these and their direct children are traced (PostgreSQL's postmaster
   *     and its backends)
   * @param names process names (comm) traced wherever they run (e.g. {@code mongod})
   * @param probes the tracepoints (see {@link BlockProbes#of})
   */
  public static String program(List<Long> pids, List<String> names, BlockProbes probes) {
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
        + "tracepoint:block:" + probes.start() + " /" + String.join(" || ", terms) + "/ {\n"
        + "  @start" + key + " = nsecs; @pid" + key + " = pid; @comm" + key + " = comm;\n"
        + "  @bytes" + key + " = args->nr_sector * 512; @rwbs" + key + " = args->rwbs; @started++;\n"
        + "}\n"
        // A front merge moves the request's first sector to the bio's: its entries follow it, or it would
        // never be seen to complete (and its bytes be lost).
        + "tracepoint:block:block_bio_frontmerge /@start[args->dev, args->sector + args->nr_sector]/ {\n"
        + "  $d = args->dev; $o = args->sector + args->nr_sector; $n = args->sector;\n"
        + "  @start[$d, $n] = @start[$d, $o]; @pid[$d, $n] = @pid[$d, $o]; @comm[$d, $n] = @comm[$d, $o];\n"
        + "  @bytes[$d, $n] = @bytes[$d, $o] + args->nr_sector * 512; @rwbs[$d, $n] = @rwbs[$d, $o];\n"
        + "  delete(@start[$d, $o]); delete(@bytes[$d, $o]); delete(@pid[$d, $o]); delete(@comm[$d, $o]);"
        + " delete(@rwbs[$d, $o]);\n"
        + "}\n"
        // Issued: the request is final (a back-merge after the start grew it).
        + "tracepoint:block:" + BlockProbes.ISSUE + " /@start" + key + "/ {\n"
        + "  @bytes" + key + " = args->nr_sector * 512; @rwbs" + key + " = args->rwbs;\n"
        + "}\n"
        + "tracepoint:block:" + probes.done() + " /@start" + key + "/ {\n"
        + "  $s = @start" + key + ";\n"
        + "  printf(\"%llu,%u,%u,%llu,%u,%s,%d,%s,%llu\\n\", $s, args->dev >> 20, args->dev & 0xfffff, args->sector,\n"
        + "    @bytes" + key + ", @rwbs" + key + ", @pid" + key + ", @comm" + key + ", nsecs - $s);\n"
        + "  delete(@start" + key + "); delete(@bytes" + key + "); delete(@pid" + key + ");\n"
        + "  delete(@comm" + key + "); delete(@rwbs" + key + "); @completed++;\n"
        + "}\n"
        // Requests still in flight at the end are counted, not dumped as maps.
        + "END {\n"
        + "  printf(\"" + COUNTS + "%d started, %d completed\\n\", @started, @completed);\n"
        + "  clear(@start); clear(@bytes); clear(@pid); clear(@comm); clear(@rwbs); clear(@started); clear(@completed);\n"
        + "}\n";
  }
}
