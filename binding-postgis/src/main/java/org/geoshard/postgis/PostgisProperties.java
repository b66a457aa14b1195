package org.geoshard.postgis;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.geoshard.harness.config.PropertyCatalog;
import org.geoshard.harness.config.RecordingProperties;

/**
 * The property names the PostGIS binding owns: exactly what its settings readers ask for, found by
 * reading them ({@link RecordingProperties}), so a property added to a reader is known here at once.
 * Besides {@code postgis.*} they read YCSB's {@code batchsize} and the harness's {@code status.interval}.
 * A partitioned table ({@code postgis.partition=cells:N}) also reads {@code geo.cells.*}, through the
 * geo workload's contract: the geo module's catalog declares those.
 */
public final class PostgisProperties implements PropertyCatalog {
  /** Every name is read whatever the values: one empty case reads them all. */
  private static final Set<String> NAMES = read(new Properties());

  @Override
  public Set<String> prefixes() {
    return Set.of("postgis.");
  }

  @Override
  public Set<String> names() {
    return NAMES;
  }

  /** The names the binding's settings readers ask for, given these values. */
  static Set<String> read(Properties values) {
    Set<String> names = new TreeSet<>(RecordingProperties.namesReadBy(PostgisSettings::fromProperties, values));
    names.addAll(RecordingProperties.namesReadBy(CellPartitioning::fromProperties, values));
    return Set.copyOf(names);
  }

  @Override
  public List<String> problems(Properties properties) {
    List<String> problems = new ArrayList<>(PropertyCatalog.problemsOf(PostgisSettings::fromProperties, properties));
    problems.addAll(PropertyCatalog.problemsOf(CellPartitioning::fromProperties, properties));
    return problems;
  }
}
