package org.geoshard.lastlocation;

import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.geoshard.harness.config.PropertyCatalog;

/** The property names the last-location workload owns. */
public final class LastLocationProperties implements PropertyCatalog {
  @Override
  public Set<String> prefixes() {
    return Set.of("ll.");
  }

  @Override
  public Set<String> names() {
    return Set.of(LastLocationSettings.USERS, LastLocationSettings.CELLS, LastLocationSettings.MOVE,
        LastLocationSettings.OUT_OF_ORDER, LastLocationSettings.MAX_DELAY_MS, LastLocationSettings.EVENTS_PER_USER,
        LastLocationSettings.CLOCK_START, LastLocationSettings.INSERT_RATE, LastLocationSettings.WRITERS,
        LastLocationSettings.SWEEP_RATES, LastLocationSettings.SWEEP_INTERVAL, LastLocationSettings.READ_LKL,
        LastLocationSettings.READ_RANGE, LastLocationSettings.READ_NEAR, LastLocationSettings.RANGE_HOURS,
        LastLocationSettings.NEAR_RADIUS, LastLocationSettings.NEAR_LIMIT, LastLocationSettings.HISTORY_BATCH_SIZE,
        LastLocationSettings.HISTORY_SPLIT, LastLocationSettings.WRITE_MODE);
  }

  @Override
  public List<String> problems(Properties properties) {
    return PropertyCatalog.problemsOf(LastLocationSettings::fromProperties, properties);
  }
}
