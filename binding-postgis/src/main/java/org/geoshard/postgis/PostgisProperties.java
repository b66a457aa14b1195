package org.geoshard.postgis;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.geoshard.harness.config.PropertyCatalog;

/** The property names the PostGIS binding owns. */
public final class PostgisProperties implements PropertyCatalog {
  @Override
  public Set<String> prefixes() {
    return Set.of("postgis.");
  }

  @Override
  public Set<String> names() {
    return Set.of(PostgisSettings.URL, PostgisSettings.USER, PostgisSettings.PASSWORD, PostgisSettings.TABLE,
        PostgisSettings.INDEX_WHEN, PostgisSettings.DROP, PostgisSettings.APPEND, PostgisSettings.CONNECT_TIMEOUT,
        PostgisSettings.BATCH_SIZE, CellPartitioning.PARTITION);
  }

  @Override
  public List<String> problems(Properties properties) {
    List<String> problems = new ArrayList<>(PropertyCatalog.problemsOf(PostgisSettings::fromProperties, properties));
    problems.addAll(PropertyCatalog.problemsOf(CellPartitioning::fromProperties, properties));
    return problems;
  }
}
