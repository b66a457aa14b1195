package org.geoshard.geo.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Properties;
import org.geoshard.geo.GeoSettings;
import org.geoshard.geo.GeoWorkload;
import org.geoshard.geo.cells.CellCounts;
import org.geoshard.geo.cells.CellGrid;
import org.geoshard.harness.config.ConfigException;
import org.junit.jupiter.api.Test;

class RestaurantCellsTest {
  @Test
  void countsTheDatasetThePropertiesDescribe() throws Exception {
    Properties p = new Properties();
    p.setProperty(GeoSettings.SCALE, "0.0005");
    CellGrid grid = new CellGrid(4);
    CellCounts counted = RestaurantCells.counted(p, grid);
    CellCounts direct = CellCounts.of(GeoWorkload.datasetOf(GeoSettings.fromProperties(p)), grid);
    assertThat(counted.total()).isEqualTo(direct.total()).isPositive();
    assertThat(counted.size()).isEqualTo(direct.size());
  }

  @Test
  void readsTheStorageGridAndTheCoveringFromTheCellProperties() throws Exception {
    Properties p = new Properties();
    RestaurantCells defaults = RestaurantCells.fromProperties(p);
    assertThat(defaults.grid().level()).isEqualTo(7);
    assertThat(defaults.covering()).isTrue();
    p.setProperty("geo.cells.level", "9");
    p.setProperty("geo.cells.covering", "false");
    RestaurantCells given = RestaurantCells.fromProperties(p);
    assertThat(given.grid().level()).isEqualTo(9);
    assertThat(given.covering()).isFalse();
    p.setProperty("geo.cells.level", "99");
    assertThatThrownBy(() -> RestaurantCells.fromProperties(p)).isInstanceOf(ConfigException.class)
        .hasMessageContaining("geo.cells.level");
  }

  @Test
  void aMissingCitiesFileIsARefusedProperty() {
    Properties p = new Properties();
    p.setProperty(GeoSettings.CITIES, "/no/such/cities.txt");
    assertThatThrownBy(() -> RestaurantCells.counted(p, new CellGrid(4))).isInstanceOf(ConfigException.class)
        .hasMessageContaining("/no/such/cities.txt");
  }

  @Test
  void aRefusedPropertyIsNamed() {
    Properties p = new Properties();
    p.setProperty(GeoSettings.SCALE, "-1");
    assertThatThrownBy(() -> RestaurantCells.counted(p, new CellGrid(4))).isInstanceOf(ConfigException.class)
        .hasMessageContaining(GeoSettings.SCALE);
  }
}
