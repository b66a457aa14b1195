package org.geoshard.geo;

import java.nio.file.Path;
import java.util.Properties;
import org.geoshard.geo.cities.CityEncoding;
import org.geoshard.geo.dataset.DatasetFormula;
import org.geoshard.geo.dataset.Placement;
import org.geoshard.geo.query.Paging;
import org.geoshard.harness.api.Seeds;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.config.PropertyReader;

/**
 * The geo workload's properties ({@code geo.*}), read and checked at once. Immutable.
 *
 * @param cities a user's cities file, or null for the bundled GeoNames cities
 * @param citiesEncoding how that file's bytes are read (the bundled file is UTF-8)
 * @param formula the study's formula ({@code STUDY}), or with {@code geo.population.floor1000=true} every
 *     population under 1,000 counted as 1,000
 * @param endProportion share of sessions that end after the basic query
 * @param filterProportion share of sessions that add one attribute filter
 * @param nextPageProportion share of sessions that ask for the next page (if the first page was full)
 */
public record GeoSettings(Path cities, CityEncoding citiesEncoding, boolean skipBadCities, DatasetFormula formula,
                          double scale, Placement placement, Paging paging,
                          int minRadiusMeters, int maxRadiusMeters, int pageSize, double endProportion,
                          double filterProportion, double nextPageProportion, long seed) {

  public static final String CITIES = "geo.cities";
  public static final String CITIES_ENCODING = "geo.cities.encoding";
  public static final String CITIES_SKIP_BAD = "geo.cities.skipbad";
  public static final String POPULATION_FLOOR_1000 = "geo.population.floor1000";
  public static final String SCALE = "geo.scale";
  public static final String PLACEMENT = "geo.placement";
  public static final String PAGING = "geo.paging";
  public static final String RADIUS_MIN = "geo.radius.min";
  public static final String RADIUS_MAX = "geo.radius.max";
  public static final String PAGE_SIZE = "geo.pagesize";
  public static final String END_PROPORTION = "geo.proportion.end";
  public static final String FILTER_PROPORTION = "geo.proportion.filter";
  public static final String NEXT_PAGE_PROPORTION = "geo.proportion.nextpage";

  public static GeoSettings fromProperties(Properties properties) throws ConfigException {
    PropertyReader in = new PropertyReader(properties);
    String cities = in.raw(CITIES);
    String encodingName = in.raw(CITIES_ENCODING);
    CityEncoding encoding = encodingName == null ? CityEncoding.UTF_8 : CityEncoding.named(encodingName);
    if (encoding == null) {
      in.problem("Property '" + CITIES_ENCODING + "' must be UTF-8 or ISO-8859-1, but is '" + encodingName + "'.");
    } else if (encodingName != null && cities == null) {
      in.problem("Property '" + CITIES_ENCODING + "' applies only to a cities file named by '" + CITIES
          + "' (the bundled cities are UTF-8); set both or neither.");
    }
    boolean skipBad = in.bool(CITIES_SKIP_BAD, false);
    DatasetFormula formula = in.bool(POPULATION_FLOOR_1000, false) ? DatasetFormula.FLOOR_1000 : DatasetFormula.STUDY;
    double scale = in.doubleInRange(SCALE, 1.0, 0, 1000);
    Placement placement = in.choice(PLACEMENT, Placement.UNIFORM_DISTANCE, Placement.class);
    Paging paging = in.choice(PAGING, Paging.SKIP, Paging.class);
    int minRadius = in.intInRange(RADIUS_MIN, 5_000, 1, 20_000_000);
    int maxRadius = in.intInRange(RADIUS_MAX, 50_000, 1, 20_000_000);
    int pageSize = in.intInRange(PAGE_SIZE, 10, 1, 100_000);
    double end = in.doubleInRange(END_PROPORTION, 0.2, 0, 1);
    double filter = in.doubleInRange(FILTER_PROPORTION, 0.48, 0, 1);
    double nextPage = in.doubleInRange(NEXT_PAGE_PROPORTION, 0.32, 0, 1);
    long seed = Seeds.runSeed(properties);
    if (scale == 0) {
      in.problem("Property '" + SCALE + "' must be greater than 0 (0.001 gives about 14 thousand restaurants).");
    }
    if (minRadius > maxRadius) {
      in.problem("Property '" + RADIUS_MIN + "' (" + minRadius + ") must not exceed '" + RADIUS_MAX + "' (" + maxRadius + ").");
    }
    if (Math.abs(end + filter + nextPage - 1) > 1e-9) {
      in.problem("Properties " + END_PROPORTION + " (" + end + "), " + FILTER_PROPORTION + " (" + filter + ") and "
          + NEXT_PAGE_PROPORTION + " (" + nextPage + ") must add up to 1.");
    }
    in.throwIfProblems();
    return new GeoSettings(cities == null ? null : Path.of(cities), encoding, skipBad, formula, scale, placement, paging,
        minRadius, maxRadius, pageSize, end, filter, nextPage, seed);
  }
}
