package org.geoshard.harness.run;

import java.util.Locale;

/** Why a run ended, as written to {@code summary.json} ({@link #label()}). */
public enum StopReason {
  /** Every thread did its share of the operation count, or the workload said it was done. */
  COMPLETED,
  /** {@code maxexecutiontime} was reached. */
  TIME,
  /** Ctrl-C or SIGTERM. */
  INTERRUPTED,
  /** A thread failed to start or crashed, or the binding could not be initialised. */
  FAILED;

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
