package org.geoshard.harness.ramp;

import java.util.Locale;

/** What the latency rule says about one ramp step. */
public enum Verdict {
  /** The step met the rule: its throughput counts as sustained. */
  PASS,
  /** More than the allowed share of requests were slower than the latency limit. */
  SLA,
  /** A request took longer than the timeout. */
  TIMEOUT,
  /** More errors than allowed. */
  ERRORS,
  /**
   * No operation succeeded in the step (all failed, or none ended): nothing was measured, so nothing
   * met the rule, whatever {@code sla.maxerrors} allows.
   */
  NOTHING,
  /** The run stopped before the step's window was complete; it is not judged. */
  PARTIAL;

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
