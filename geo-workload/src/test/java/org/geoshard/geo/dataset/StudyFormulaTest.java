package org.geoshard.geo.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.geoshard.geo.GeoSettings;
import org.geoshard.geo.GeoWorkload;
import org.geoshard.geo.cities.City;
import org.geoshard.geo.cities.CityReader;
import org.junit.jupiter.api.Test;

/**
 * The default dataset is the study's, city for city: compared with a table made by
 * {@code geo-workload/tools/study-counts} (Python, exact integer arithmetic, from the published
 * formula) on a file in the study's own input format, and on every bundled city with the same exact
 * arithmetic written here, apart from the production code's floating-point path.
 */
class StudyFormulaTest {
  private static final long SPAN = DatasetFormula.MAX_POPULATION - DatasetFormula.MIN_POPULATION;

  record Row(String name, long population, long restaurants, int radius) {
  }

  private static List<Row> studyTable() throws Exception {
    List<Row> rows = new ArrayList<>();
    try (BufferedReader in = new BufferedReader(new InputStreamReader(
        StudyFormulaTest.class.getResourceAsStream("study-counts.tsv"), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        String[] f = line.split("\t");
        rows.add(new Row(f[0], Long.parseLong(f[1]), Long.parseLong(f[2]), Integer.parseInt(f[3])));
      }
    }
    return rows;
  }

  private static Path resource(String name) throws URISyntaxException {
    return Path.of(StudyFormulaTest.class.getResource(name).toURI());
  }

  @Test
  void theStudysInputGivesTheStudysCountForEveryCity() throws Exception {
    Properties properties = new Properties();
    properties.setProperty(GeoSettings.CITIES, resource("study-cities.csv").toString());
    RestaurantDataset dataset = GeoWorkload.datasetOf(GeoSettings.fromProperties(properties));
    List<Row> table = studyTable();

    assertThat(dataset.cities()).hasSize(table.size());
    for (int i = 0; i < table.size(); i++) {
      Row row = table.get(i);
      assertThat(dataset.cities().get(i).name()).isEqualTo(row.name());
      assertThat(dataset.restaurantsIn(i)).as("restaurants of %s (%d people)", row.name(), row.population())
          .isEqualTo(row.restaurants());
      assertThat(dataset.radiusMeters(i)).as("radius of %s (%d people)", row.name(), row.population())
          .isEqualTo(row.radius());
    }
    assertThat(dataset.size()).isEqualTo(table.stream().mapToLong(Row::restaurants).sum());
    // The table holds the cases where the study and the floor-1000 rule part ways.
    assertThat(table).anyMatch(r -> r.restaurants() == 0).anyMatch(r -> r.restaurants() == 1)
        .anyMatch(r -> r.population() == 0 && r.restaurants() == 2);
  }

  @Test
  void everyBundledCityGetsTheStudysCount() throws Exception {
    List<City> cities = new CityReader(false).readBundled();
    RestaurantDataset dataset = new RestaurantDataset(cities, 1.0, Placement.UNIFORM_DISTANCE, 1);
    long total = 0;
    for (int i = 0; i < cities.size(); i++) {
      long population = cities.get(i).population();
      long pop = population == 0 ? 1_000 : population;
      long expected = Math.max(0, 2 + -Math.floorDiv(-((pop - 1_000) * 99_998), SPAN));
      long radius = 1_000 + -Math.floorDiv(-((pop - 1_000) * 43_927), SPAN);
      if (dataset.restaurantsIn(i) != expected || dataset.radiusMeters(i) != radius) {
        assertThat(dataset.restaurantsIn(i)).as("restaurants of city %d (%d people)", i, population).isEqualTo(expected);
        assertThat((long) dataset.radiusMeters(i)).as("radius of city %d (%d people)", i, population).isEqualTo(radius);
      }
      total += expected;
    }
    assertThat(dataset.size()).isEqualTo(total);
  }

  @Test
  void theFloorRuleCountsSmallPlacesAsAThousandPeople() {
    for (long population : new long[] {0, 1, 107, 500, 776, 999}) {
      assertThat(DatasetFormula.FLOOR_1000.restaurants(population)).as("at %d", population).isEqualTo(2);
      assertThat(DatasetFormula.FLOOR_1000.radiusMeters(population)).as("at %d", population).isEqualTo(1_000);
    }
    assertThat(DatasetFormula.STUDY.restaurants(1)).isZero();
    assertThat(DatasetFormula.STUDY.restaurants(776)).isEqualTo(1);
    assertThat(DatasetFormula.STUDY.restaurants(0)).isEqualTo(2);
  }

  @Test
  void theOptionSelectsTheFloorRule() throws Exception {
    Properties properties = new Properties();
    assertThat(GeoSettings.fromProperties(properties).formula()).isEqualTo(DatasetFormula.STUDY);
    properties.setProperty(GeoSettings.POPULATION_FLOOR_1000, "true");
    assertThat(GeoSettings.fromProperties(properties).formula()).isEqualTo(DatasetFormula.FLOOR_1000);
  }
}
