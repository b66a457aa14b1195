package org.geoshard.harness.observe;

import java.util.Locale;

/** The spans of a phase that observers (tracers, samplers) can be started and stopped around. */
public enum Stage {
  /** The load's inserts, from the first to the last. */
  LOAD,
  /** The preparation after the load (e.g. the index build). */
  AFTER_LOAD,
  /** The run phase's operations. */
  RUN;

  /** The name used in properties and the run folder: {@code load}, {@code after-load}, {@code run}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** The stage of a label, or null when none has it. */
  public static Stage ofLabel(String label) {
    for (Stage s : values()) {
      if (s.label().equals(label)) {
        return s;
      }
    }
    return null;
  }
}
