package org.geoshard.geo.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.geoshard.geo.ChiSquare;
import org.geoshard.geo.TestCities;
import org.geoshard.geo.cities.City;
import org.geoshard.geo.cities.CityReader;
import org.geoshard.geo.contract.Restaurant;
import org.junit.jupiter.api.Test;

class RestaurantDatasetTest {
  @Test
  void sizeIsTheSumOfTheFormula() {
    RestaurantDataset full = new RestaurantDataset(TestCities.FIVE, 1.0, Placement.UNIFORM_DISTANCE, 1);
    long expected = 0;
    for (City city : TestCities.FIVE) {
      expected += DatasetFormula.STUDY.restaurants(city.population());
    }
    assertThat(full.size()).isEqualTo(expected);
    assertThat(full.restaurantsIn(0)).isEqualTo(100_000);
    assertThat(full.restaurantsIn(3)).isEqualTo(2);
  }

  @Test
  void scaledCountsRoundCumulativelySoTheTotalIsExact() {
    RestaurantDataset full = new RestaurantDataset(TestCities.FIVE, 1.0, Placement.UNIFORM_DISTANCE, 1);
    for (double scale : new double[] {0.001, 0.01, 0.37, 2.5}) {
      RestaurantDataset scaled = new RestaurantDataset(TestCities.FIVE, scale, Placement.UNIFORM_DISTANCE, 1);
      assertThat(scaled.size()).as("scale %s", scale).isEqualTo(Math.round(full.size() * scale));
      for (int i = 0; i < TestCities.FIVE.size(); i++) {
        double share = full.restaurantsIn(i) * scale;
        assertThat(scaled.restaurantsIn(i)).as("city %d at scale %s", i, scale)
            .isBetween((long) Math.ceil(share - 1), (long) Math.floor(share + 1));
      }
    }
    // At scale 0.001 the two-restaurant cities get none.
    RestaurantDataset tiny = new RestaurantDataset(TestCities.FIVE, 0.001, Placement.UNIFORM_DISTANCE, 1);
    assertThat(tiny.restaurantsIn(3)).isZero();
  }

  @Test
  void everyRestaurantBelongsToTheRightCityEvenAroundEmptyCities() {
    RestaurantDataset tiny = new RestaurantDataset(TestCities.FIVE, 0.001, Placement.UNIFORM_DISTANCE, 1);
    long k = 0;
    for (int city = 0; city < TestCities.FIVE.size(); city++) {
      for (long j = 0; j < tiny.restaurantsIn(city); j++, k++) {
        assertThat(tiny.cityOf(k)).isEqualTo(city);
        assertThat(tiny.restaurant(k).city()).isEqualTo(TestCities.FIVE.get(city).name());
      }
    }
    assertThat(k).isEqualTo(tiny.size());
    assertThatThrownBy(() -> tiny.cityOf(tiny.size())).isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void restaurantKIsAPureFunctionOfSeedAndK() {
    RestaurantDataset a = new RestaurantDataset(TestCities.FIVE, 0.01, Placement.UNIFORM_DISTANCE, 42);
    RestaurantDataset b = new RestaurantDataset(TestCities.FIVE, 0.01, Placement.UNIFORM_DISTANCE, 42);
    RestaurantDataset other = new RestaurantDataset(TestCities.FIVE, 0.01, Placement.UNIFORM_DISTANCE, 43);
    assertThat(a.restaurant(123)).isEqualTo(b.restaurant(123));
    // Reading in any order gives the same documents.
    List<Restaurant> forward = new ArrayList<>();
    for (long k = 0; k < a.size(); k++) {
      forward.add(a.restaurant(k));
    }
    for (long k = a.size() - 1; k >= 0; k--) {
      assertThat(b.restaurant(k)).isEqualTo(forward.get((int) k));
    }
    assertThat(other.restaurant(123)).isNotEqualTo(a.restaurant(123));
  }

  @Test
  void fieldsAreInRangeAndUniform() {
    RestaurantDataset dataset = new RestaurantDataset(TestCities.FIVE, 0.5, Placement.UNIFORM_DISTANCE, 3);
    Map<String, Long> cuisines = new HashMap<>();
    long[] ratings = new long[5];
    long[] pricing = new long[3];
    long outside = 0;
    for (long k = 0; k < dataset.size(); k++) {
      Restaurant r = dataset.restaurant(k);
      assertThat(r.id()).isEqualTo(k);
      assertThat(r.name()).matches(r.cuisine() + " (Bar|Restaurant|Hotel|Motel|Food Truck|Cafe|Stand|Dinner|Bistro) \\d{1,4}");
      int number = Integer.parseInt(r.name().substring(r.name().lastIndexOf(' ') + 1));
      assertThat(number).isBetween(1, 1000);
      assertThat(r.opened()).isBetween(1970, 2022);
      assertThat(r.reviews()).isBetween(1, 1000);
      cuisines.merge(r.cuisine(), 1L, Long::sum);
      ratings[r.rating() - 1]++;
      pricing[RestaurantDataset.PRICINGS.indexOf(r.pricing())]++;
      outside += r.outsideArea() ? 1 : 0;
    }
    long[] cuisineCounts = RestaurantDataset.CUISINES.stream().mapToLong(c -> cuisines.getOrDefault(c, 0L)).toArray();
    assertThat(ChiSquare.statistic(cuisineCounts, ChiSquare.uniform(15))).isLessThan(ChiSquare.critical999(14));
    assertThat(ChiSquare.statistic(ratings, ChiSquare.uniform(5))).isLessThan(ChiSquare.critical999(4));
    assertThat(ChiSquare.statistic(pricing, ChiSquare.uniform(3))).isLessThan(ChiSquare.critical999(2));
    assertThat(ChiSquare.statistic(new long[] {outside, dataset.size() - outside}, ChiSquare.uniform(2)))
        .isLessThan(ChiSquare.critical999(1));
  }

  @Test
  void restaurantsStayWithinTheirCitysRadius() {
    RestaurantDataset dataset = new RestaurantDataset(TestCities.FIVE, 0.05, Placement.UNIFORM_AREA, 5);
    for (long k = 0; k < dataset.size(); k++) {
      Restaurant r = dataset.restaurant(k);
      int city = dataset.cityOf(k);
      City c = TestCities.FIVE.get(city);
      assertThat(Sphere.distanceMeters(c.longitude(), c.latitude(), r.longitude(), r.latitude()))
          .isLessThanOrEqualTo(dataset.radiusMeters(city) + 1e-6);
    }
  }

  @Test
  void theBundledCitiesGiveTheDocumentedTotal() throws Exception {
    List<City> cities = new CityReader(false).readBundled();
    RestaurantDataset full = new RestaurantDataset(cities, 1.0, Placement.UNIFORM_DISTANCE, 1);
    assertThat(cities).hasSize(135_233);
    assertThat(full.size()).isEqualTo(13_829_385);
    assertThat(new RestaurantDataset(cities, 0.001, Placement.UNIFORM_DISTANCE, 1).size()).isEqualTo(13_829);
    RestaurantDataset floor = new RestaurantDataset(cities, DatasetFormula.FLOOR_1000, 1.0, Placement.UNIFORM_DISTANCE, 1);
    assertThat(floor.size()).isEqualTo(13_844_486);
  }
}
