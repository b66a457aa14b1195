package org.geoshard.geo.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.LongAdder;
import org.geoshard.geo.ChiSquare;
import org.geoshard.geo.GeoSettings;
import org.geoshard.geo.TestCities;
import org.geoshard.geo.contract.AttributeFilter;
import org.geoshard.geo.contract.GeoHit;
import org.geoshard.geo.contract.GeoQuery;
import org.geoshard.geo.contract.Restaurant;
import org.geoshard.geo.dataset.RestaurantDataset;
import org.geoshard.geo.dataset.Sphere;
import org.junit.jupiter.api.Test;

class QuerySessionTest {
  private static GeoSettings settings(String... pairs) throws Exception {
    Properties p = new Properties();
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return GeoSettings.fromProperties(p);
  }

  private static List<GeoHit> page(int size, double firstDistance) {
    List<GeoHit> hits = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      hits.add(new GeoHit(new Restaurant(i, "n", "c", "Vegan", 2000, 3, 10, "$", false, 0, 0), firstDistance + i * 10));
    }
    return hits;
  }

  private static final RestaurantDataset DATASET =
      new RestaurantDataset(TestCities.FIVE, 0.01, org.geoshard.geo.dataset.Placement.UNIFORM_DISTANCE, 1);

  @Test
  void followUpsFollowTheStudysProportions() throws Exception {
    GeoSettings s = settings();
    QuerySession session = new QuerySession(new QueryGenerator(DATASET, s), s, new SplittableRandom(99), new LongAdder());
    Map<QuerySession.Step, Long> counts = new EnumMap<>(QuerySession.Step.class);
    long[] filterKinds = new long[4];
    for (int i = 0; i < 200_000; i++) {
      QuerySession.Step step = session.nextStep();
      GeoQuery query = session.nextQuery();
      counts.merge(step, 1L, Long::sum);
      if (step == QuerySession.Step.GEO_NEAR_FILTERED) {
        AttributeFilter f = query.filter();
        filterKinds[f instanceof AttributeFilter.CuisineEquals ? 0 : f instanceof AttributeFilter.RatingGreaterThan ? 1
            : f instanceof AttributeFilter.OutsideAreaEquals ? 2 : 3]++;
      }
      session.completed(page(10, 100));  // always a full page
    }
    long basic = counts.get(QuerySession.Step.GEO_NEAR);
    long filtered = counts.get(QuerySession.Step.GEO_NEAR_FILTERED);
    long next = counts.get(QuerySession.Step.GEO_NEXT_PAGE);
    // Each basic query is followed by: nothing (0.2), a filtered query (0.48), the next page (0.32).
    long[] followUps = {basic - filtered - next, filtered, next};
    assertThat(ChiSquare.statistic(followUps, new double[] {0.2, 0.48, 0.32})).isLessThan(ChiSquare.critical999(2));
    assertThat(ChiSquare.statistic(filterKinds, ChiSquare.uniform(4))).isLessThan(ChiSquare.critical999(3));
    // A wrong mix is caught: the same counts do not fit 0.3/0.4/0.3.
    assertThat(ChiSquare.statistic(followUps, new double[] {0.3, 0.4, 0.3})).isGreaterThan(ChiSquare.critical999(2));
  }

  @Test
  void noNextPageAfterAPageThatIsNotFull() throws Exception {
    GeoSettings s = settings("geo.proportion.end", "0", "geo.proportion.filter", "0", "geo.proportion.nextpage", "1");
    LongAdder notFull = new LongAdder();
    QuerySession session = new QuerySession(new QueryGenerator(DATASET, s), s, new SplittableRandom(1), notFull);
    for (int i = 0; i < 100; i++) {
      assertThat(session.nextStep()).isEqualTo(QuerySession.Step.GEO_NEAR);
      session.nextQuery();
      session.completed(page(9, 100));
    }
    assertThat(notFull.sum()).isEqualTo(100);
  }

  @Test
  void skipPagingAsksForResultsElevenToTwenty() throws Exception {
    GeoSettings s = settings("geo.proportion.end", "0", "geo.proportion.filter", "0", "geo.proportion.nextpage", "1");
    QuerySession session = new QuerySession(new QueryGenerator(DATASET, s), s, new SplittableRandom(2), new LongAdder());
    GeoQuery basic = session.nextQuery();
    session.completed(page(10, 100));
    assertThat(session.nextStep()).isEqualTo(QuerySession.Step.GEO_NEXT_PAGE);
    GeoQuery next = session.nextQuery();
    assertThat(next).isEqualTo(basic.withSkip(10));
    assertThat(next.filter()).isNull();
  }

  @Test
  void minDistancePagingStartsAtTheLastDistanceAndLeavesOutItsTies() throws Exception {
    GeoSettings s = settings("geo.paging", "mindistance", "geo.proportion.end", "0", "geo.proportion.filter", "0",
        "geo.proportion.nextpage", "1");
    QuerySession session = new QuerySession(new QueryGenerator(DATASET, s), s, new SplittableRandom(3), new LongAdder());
    GeoQuery basic = session.nextQuery();
    List<GeoHit> hits = page(10, 100);
    // Two results tie at the last distance (190 m).
    hits.set(8, new GeoHit(hits.get(8).restaurant(), 190));
    session.completed(hits);
    GeoQuery next = session.nextQuery();
    assertThat(next.skip()).isZero();
    assertThat(next.minDistanceMeters()).isCloseTo(190 - QuerySession.SAME_DISTANCE_METERS, org.assertj.core.api.Assertions.within(1e-9));
    assertThat(next.excludeIds()).containsExactlyInAnyOrder(8L, 9L);
    assertThat(next.maxDistanceMeters()).isEqualTo(basic.maxDistanceMeters());
  }

  @Test
  void centresLieNearCitiesAndRadiiAreUniformInTheirRange() throws Exception {
    GeoSettings s = settings();
    QueryGenerator generator = new QueryGenerator(DATASET, s);
    SplittableRandom random = new SplittableRandom(5);
    long[] radiusBins = new long[10];
    long[] cityHits = new long[TestCities.FIVE.size()];
    for (int i = 0; i < 50_000; i++) {
      GeoQuery q = generator.basic(random);
      assertThat(q.limit()).isEqualTo(10);
      assertThat(q.maxDistanceMeters()).isBetween(5_000.0, 50_000.0).isEqualTo(Math.rint(q.maxDistanceMeters()));
      radiusBins[Math.min(9, (int) ((q.maxDistanceMeters() - 5_000) / 4_500.1))]++;
      int nearest = -1;
      for (int c = 0; c < TestCities.FIVE.size(); c++) {
        var city = TestCities.FIVE.get(c);
        if (Sphere.distanceMeters(city.longitude(), city.latitude(), q.longitude(), q.latitude())
            <= DATASET.radiusMeters(c) + 1e-6) {
          nearest = c;
        }
      }
      assertThat(nearest).as("centre within some city's radius").isNotNegative();
      cityHits[nearest]++;
    }
    assertThat(ChiSquare.statistic(radiusBins, ChiSquare.uniform(10))).isLessThan(ChiSquare.critical999(9));
    // Cities are chosen uniformly, not by size.
    assertThat(ChiSquare.statistic(cityHits, ChiSquare.uniform(5))).isLessThan(ChiSquare.critical999(4));
  }
}
