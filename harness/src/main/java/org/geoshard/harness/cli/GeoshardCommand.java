package org.geoshard.harness.cli;

import java.util.concurrent.Callable;

/**
 * A subcommand of {@code bin/ycsb} contributed by another module (e.g. {@code geo-dataset}), found
 * with {@link java.util.ServiceLoader}. Implementations are picocli {@code @Command}s whose
 * {@code call()} returns one of {@link ExitCodes}.
 */
public interface GeoshardCommand extends Callable<Integer> {
  /**
   * The command this one is a subcommand of (for example {@code bench}, so that a binding adds
   * {@code bin/ycsb bench <its name>} without the harness knowing it), or null for a top-level command.
   */
  default String parentCommand() {
    return null;
  }
}
