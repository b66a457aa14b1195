package org.geoshard.lastlocation;

import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.geoshard.harness.config.PropertyCatalog;
import org.geoshard.harness.config.RecordingProperties;

/**
 * The property names the last-location workload owns: what {@link LastLocationSettings#fromProperties}
 * reads (every name, unconditionally; {@code seed} too), recorded once, not listed by hand. The
 * {@code geo.*} names it reads for its cities are the geo workload's catalog's.
 */
public final class LastLocationProperties implements PropertyCatalog {
  @Override
  public Set<String> prefixes() {
    return Set.of("ll.");
  }

  @Override
  public Set<String> names() {
    return Names.ALL;
  }

  /** What the settings reader reads. */
  static Set<String> readBySettings() {
    return RecordingProperties.namesReadBy(LastLocationSettings::fromProperties);
  }

  @Override
  public List<String> problems(Properties properties) {
    return PropertyCatalog.problemsOf(LastLocationSettings::fromProperties, properties);
  }

  /** Recorded once, when first asked for. */
  private static final class Names {
    static final Set<String> ALL = Set.copyOf(readBySettings());
  }
}
