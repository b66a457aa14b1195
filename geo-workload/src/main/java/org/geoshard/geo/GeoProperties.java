package org.geoshard.geo;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.geoshard.geo.cells.CellSettings;
import org.geoshard.harness.config.PropertyCatalog;
import org.geoshard.harness.config.RecordingProperties;

/**
 * The property names the geo workload owns: what its settings readers ({@link GeoSettings},
 * {@link CellSettings}) read, recorded once, not listed by hand (they read every name unconditionally).
 * That includes {@code seed}, which {@link GeoSettings} reads too.
 */
public final class GeoProperties implements PropertyCatalog {
  /** The settings readers whose names this catalog is. */
  static final List<SettingsReader> READERS = List.of(GeoSettings::fromProperties, CellSettings::fromProperties);

  @Override
  public Set<String> prefixes() {
    return Set.of("geo.");
  }

  @Override
  public Set<String> names() {
    return Names.ALL;
  }

  /** What {@link #READERS} read. */
  static Set<String> readBySettings() {
    Set<String> names = new TreeSet<>();
    READERS.forEach(reader -> names.addAll(RecordingProperties.namesReadBy(reader)));
    return names;
  }

  @Override
  public List<String> problems(Properties properties) {
    List<String> problems = new ArrayList<>();
    READERS.forEach(reader -> problems.addAll(PropertyCatalog.problemsOf(reader, properties)));
    return problems;
  }

  /** Recorded once, when first asked for. */
  private static final class Names {
    static final Set<String> ALL = Set.copyOf(readBySettings());
  }
}
