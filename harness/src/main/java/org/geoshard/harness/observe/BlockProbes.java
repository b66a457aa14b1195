package org.geoshard.harness.observe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The block tracepoints a trace uses, chosen from what the kernel has. Each set has a probe where a
 * request starts, in the process that submits it (where the traced processes are chosen, since the
 * other two may run in a kernel worker or an interrupt), {@code block_rq_issue} where the request is
 * final (its size after every back-merge) and a probe where it is done.
 */
public enum BlockProbes {
  /** Linux 6.5 and later: {@code block_io_start} and {@code block_io_done} (request accounting). */
  BLOCK_IO("block_io_start", "block_io_done"),
  /** Linux 4.x to 6.4 (and later): {@code block_getrq}, where the request is allocated for a bio. */
  BLOCK_RQ("block_getrq", "block_rq_complete");

  /** Where every set takes the request's final size and flags. */
  public static final String ISSUE = "block_rq_issue";
  /** Where every set follows a request whose first sector a front merge moved. */
  public static final String FRONT_MERGE = "block_bio_frontmerge";

  private final String start;
  private final String done;

  BlockProbes(String start, String done) {
    this.start = start;
    this.done = done;
  }

  public String start() {
    return start;
  }

  public String done() {
    return done;
  }

  /** The property value that forces this set ({@code block_io} or {@code block_rq}). */
  public String value() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The tracepoints, in the order a request meets them: what run.json records. */
  public List<String> tracepoints() {
    return List.of(start, FRONT_MERGE, ISSUE, done);
  }

  /** The set a property value names; null for anything else. */
  public static BlockProbes ofValue(String value) {
    for (BlockProbes p : values()) {
      if (p.value().equals(value)) {
        return p;
      }
    }
    return null;
  }

  /**
   * The newest set the kernel has, from its tracepoint directory ({@code events/block} of tracefs).
   *
   * @throws IOException neither set is there; the message names the directory
   */
  public static BlockProbes of(Path blockEvents) throws IOException {
    for (BlockProbes p : values()) {
      if (p.tracepoints().stream().allMatch(t -> Files.isDirectory(blockEvents.resolve(t)))) {
        return p;
      }
    }
    throw new IOException("the kernel has neither block_io_start/block_io_done nor block_getrq/block_rq_complete (with"
        + " block_bio_frontmerge and block_rq_issue) under " + blockEvents + " (is tracefs mounted?)");
  }
}
