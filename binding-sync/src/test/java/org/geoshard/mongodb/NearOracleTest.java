package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.geoshard.geo.GeoSettings;
import org.geoshard.geo.GeoWorkload;
import org.geoshard.geo.contract.AttributeFilter;
import org.geoshard.geo.contract.GeoHit;
import org.geoshard.geo.contract.GeoQuery;
import org.geoshard.geo.contract.Restaurant;
import org.geoshard.geo.dataset.RestaurantDataset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The container tests' oracle checked here, where those tests are skipped: it accepts its own answers and no other. */
class NearOracleTest {
  @TempDir
  Path dir;

  @Test
  void acceptsItsOwnAnswersAndRefusesChangedOnes() throws Exception {
    GeoSettings settings = GeoSettings.fromProperties(StandaloneNearContainerTest.geoProperties(dir, "mongodb://h/ycsb"));
    RestaurantDataset dataset = GeoWorkload.datasetOf(settings);
    NearOracle oracle = new NearOracle(dataset);
    int full = 0;
    for (GeoQuery basic : NearOracle.basics(dataset, settings, 20, 3)) {
      List<GeoHit> page = oracle.answer(basic);
      oracle.assertAnswers("basic", basic, page);
      if (page.size() < basic.limit()) {
        continue;
      }
      full++;
      GeoQuery next = NearOracle.afterLastHit(basic, page);
      List<GeoHit> second = oracle.answer(next);
      assertThat(second).as("the next page by distance is the page after skipping")
          .isEqualTo(oracle.answer(basic.withSkip(basic.limit())).subList(0, second.size()));
      List<GeoHit> missing = new ArrayList<>(page.subList(0, page.size() - 1));
      assertThatThrownBy(() -> oracle.assertAnswers("short", basic, missing)).isInstanceOf(AssertionError.class);
      List<GeoHit> wrong = new ArrayList<>(page);
      GeoHit middle = wrong.get(4);
      Restaurant other = new Restaurant(-1, "x", "y", "Polish", 2000, 1, 1, "$", true, middle.restaurant().longitude(),
          middle.restaurant().latitude());
      wrong.set(4, new GeoHit(other, middle.distanceMeters()));
      assertThatThrownBy(() -> oracle.assertAnswers("wrong id", basic, wrong)).isInstanceOf(AssertionError.class);
      GeoQuery filtered = basic.withFilter(new AttributeFilter.RatingGreaterThan(3));
      assertThat(oracle.answer(filtered)).allMatch(h -> h.restaurant().rating() > 3);
    }
    assertThat(full).as("queries with a full first page").isGreaterThan(5);
  }
}
