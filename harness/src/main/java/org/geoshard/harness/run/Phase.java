package org.geoshard.harness.run;

import java.util.Locale;

/** YCSB's two phases: {@code load} inserts the dataset, {@code run} executes the transaction mix. */
public enum Phase {
  LOAD,
  RUN;

  public String commandName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
