package org.geoshard.harness.measure;

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
  FAILED,
  /** Ramp: a step broke the latency rule. */
  SLA,
  /** Ramp: a request took longer than {@code sla.timeout.ms}. */
  TIMEOUT,
  /** Ramp: a step had more errors than {@code sla.maxerrors}. */
  ERRORS,
  /** Ramp: no operation succeeded in a step (whatever {@code sla.maxerrors} allows). */
  NOTHING,
  /** Operations failed and none succeeded for {@code giveup.s} seconds (the database is gone). */
  GIVEUP,
  /** Ramp: the last step ({@code ramp.maxthreads}, or {@code ramp.rate.max}) met the rule. */
  MAXTHREADS;

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
