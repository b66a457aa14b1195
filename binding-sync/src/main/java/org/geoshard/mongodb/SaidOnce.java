package org.geoshard.mongodb;

import java.util.HashSet;
import java.util.Set;
import org.geoshard.harness.api.RunContext;

/**
 * What the process has said already, by a key of the caller's: a warning about the server that every
 * phase of a command would repeat (a {@code bench} runs many) is said once. Held by the command's
 * context ({@link RunContext#process()}), never JVM-wide.
 */
final class SaidOnce {
  private final Set<String> said = new HashSet<>();

  /** The process's: one per command. */
  static SaidOnce in(RunContext context) {
    return context.process().shared(SaidOnce.class, SaidOnce.class, SaidOnce::new);
  }

  /** True the first time {@code key} is asked for in this process. */
  synchronized boolean first(String key) {
    return said.add(key);
  }
}
