package org.geoshard.geo.contract;

import java.util.Properties;
import org.geoshard.geo.GeoSettings;
import org.geoshard.geo.GeoWorkload;
import org.geoshard.geo.cells.CellCounts;
import org.geoshard.geo.cells.CellGrid;
import org.geoshard.geo.cities.CityFileException;
import org.geoshard.harness.config.ConfigException;

/**
 * How the restaurants a run's {@code geo.*} properties describe fall on a cell grid: what a binding
 * needs to cut a cell-keyed collection or table into balanced ranges before the load. Read by the
 * contract, so a binding never builds the workload's dataset or reads its settings itself.
 */
public final class RestaurantCells {
  private RestaurantCells() {
  }

  /**
   * The restaurants per cell of the grid (every restaurant generated once: about a second per million).
   *
   * @throws ConfigException naming the {@code geo.*} property at fault
   * @throws CityFileException when the cities file cannot be read
   */
  public static CellCounts counted(Properties properties, CellGrid grid) throws ConfigException, CityFileException {
    return CellCounts.of(GeoWorkload.datasetOf(GeoSettings.fromProperties(properties)), grid);
  }
}
