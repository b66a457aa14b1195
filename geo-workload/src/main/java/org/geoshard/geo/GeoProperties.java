package org.geoshard.geo;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.geoshard.geo.cells.CellSettings;
import org.geoshard.harness.config.PropertyCatalog;

/** The property names the geo workload owns. */
public final class GeoProperties implements PropertyCatalog {
  @Override
  public Set<String> prefixes() {
    return Set.of("geo.");
  }

  @Override
  public Set<String> names() {
    return Set.of(GeoSettings.CITIES, GeoSettings.CITIES_ENCODING, GeoSettings.CITIES_SKIP_BAD,
        GeoSettings.POPULATION_FLOOR_1000, GeoSettings.SCALE, GeoSettings.PLACEMENT, GeoSettings.PAGING,
        GeoSettings.RADIUS_MIN, GeoSettings.RADIUS_MAX, GeoSettings.PAGE_SIZE,
        GeoSettings.END_PROPORTION, GeoSettings.FILTER_PROPORTION, GeoSettings.NEXT_PAGE_PROPORTION,
        CellSettings.LEVEL, CellSettings.SHARDS, CellSettings.COVERING, CellSettings.QUERIES);
  }

  @Override
  public List<String> problems(Properties properties) {
    List<String> problems = new ArrayList<>(PropertyCatalog.problemsOf(GeoSettings::fromProperties, properties));
    problems.addAll(PropertyCatalog.problemsOf(CellSettings::fromProperties, properties));
    return problems;
  }
}
