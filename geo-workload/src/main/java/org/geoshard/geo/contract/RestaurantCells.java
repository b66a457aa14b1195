package org.geoshard.geo.contract;

import java.util.Properties;
import org.geoshard.geo.GeoSettings;
import org.geoshard.geo.GeoWorkload;
import org.geoshard.geo.cells.CellCounts;
import org.geoshard.geo.cells.CellGrid;
import org.geoshard.geo.cells.CellSettings;
import org.geoshard.geo.cities.CityFileException;
import org.geoshard.geo.query.QueryGenerator;
import org.geoshard.geo.query.QuerySession;
import org.geoshard.harness.api.Seeds;
import org.geoshard.harness.config.ConfigException;

/**
 * The cell each restaurant is stored with, as a binding that keys or partitions by it needs to know:
 * the grid of the storage level ({@code geo.cells.level}) and whether near queries carry the covering
 * of their cap ({@code geo.cells.covering}); and how the restaurants fall on a grid, to cut the key into
 * balanced ranges before the load. Read by the contract from the run's {@code geo.*} properties, so a
 * binding never reads the workload's settings or builds its dataset itself.
 */
public record RestaurantCells(CellGrid grid, boolean covering) {
  /**
   * The cells the properties describe.
   *
   * @throws ConfigException naming every {@code geo.cells.*} property at fault
   */
  public static RestaurantCells fromProperties(Properties properties) throws ConfigException {
    CellSettings cells = CellSettings.fromProperties(properties);
    return new RestaurantCells(cells.grid(), cells.covering());
  }

  /**
   * The restaurants per cell of the grid (every restaurant generated once: about a second per million).
   *
   * @throws ConfigException naming the {@code geo.*} property at fault, or saying why the cities file
   *     could not be read
   */
  public static CellCounts counted(Properties properties, CellGrid grid) throws ConfigException {
    try {
      return CellCounts.of(GeoWorkload.datasetOf(GeoSettings.fromProperties(properties)), grid);
    } catch (CityFileException e) {
      throw new ConfigException(e.getMessage());
    }
  }

  /**
   * The first query thread 0 of a run asks: the same seeded stream ({@code seed}, "geo-queries", thread 0)
   * as {@link GeoWorkload}'s, so that a check before the run asks the router about a query the run sends.
   *
   * @throws ConfigException naming the {@code geo.*} property at fault, or saying why the cities file
   *     could not be read
   */
  public static GeoQuery firstQuery(Properties properties) throws ConfigException {
    GeoSettings settings = GeoSettings.fromProperties(properties);
    try {
      QueryGenerator generator = new QueryGenerator(GeoWorkload.datasetOf(settings), settings);
      return new QuerySession(generator, settings, Seeds.forThread(settings.seed(), "geo-queries", 0),
          new java.util.concurrent.atomic.LongAdder()).nextQuery();
    } catch (CityFileException e) {
      throw new ConfigException(e.getMessage());
    }
  }
}
