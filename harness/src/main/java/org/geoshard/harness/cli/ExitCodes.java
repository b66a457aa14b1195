package org.geoshard.harness.cli;

/** The exit codes of {@code bin/ycsb}. */
public final class ExitCodes {
  /** Everything ran and nothing failed. */
  public static final int OK = 0;
  /** The run happened but something failed: operation errors, a crashed thread, a failed start. */
  public static final int FAILED = 1;
  /** The command line or a property is wrong; nothing ran. */
  public static final int USAGE = 2;
  /** Stopped by Ctrl-C or SIGTERM; what was measured is written. */
  public static final int INTERRUPTED = 130;

  private ExitCodes() {
  }
}
