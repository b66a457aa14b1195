package org.geoshard.postgis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.SplittableRandom;
import org.geoshard.geo.GeoSettings;
import org.geoshard.geo.TestCities;
import org.geoshard.geo.contract.AttributeFilter;
import org.geoshard.geo.contract.GeoHit;
import org.geoshard.geo.contract.GeoQuery;
import org.geoshard.geo.contract.Restaurant;
import org.geoshard.geo.dataset.Placement;
import org.geoshard.geo.dataset.RestaurantDataset;
import org.geoshard.geo.dataset.Sphere;
import org.geoshard.geo.query.QueryGenerator;
import org.geoshard.harness.api.ExplainsOperations;
import org.geoshard.harness.api.Preparable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * PostGIS's near queries against a brute-force haversine computation over the same generated
 * restaurants: same ids in the same order (ties by id) and distances within 0.5 m, for basic,
 * filtered and paged queries.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgisOracleTest {
  /** Queries whose radius boundary or page boundary falls this close to a restaurant are ambiguous. */
  private static final double AMBIGUOUS_METERS = 0.5;

  private RestaurantDataset dataset;
  private List<Restaurant> all;
  private PostgisDB db;
  private QueryGenerator generator;

  @BeforeAll
  void load() throws Exception {
    Properties p = properties();
    dataset = new RestaurantDataset(TestCities.FIVE, 0.02, Placement.UNIFORM_DISTANCE, 11);
    all = new ArrayList<>();
    db = new PostgisDB();
    db.setProperties(p);
    db.init();
    Preparable.Steps run = (name, work) -> {
      try {
        work.run();
      } catch (Exception e) {
        throw new DBException(e);
      }
    };
    db.prepare(Preparable.Stage.BEFORE_LOAD, java.util.Set.of(org.geoshard.geo.contract.GeoContract.RESTAURANTS), run);
    for (long k = 0; k < dataset.size(); k++) {
      Restaurant r = dataset.restaurant(k);
      all.add(r);
      assertThat(db.insertRestaurant(r)).isIn(Status.OK, Status.BATCHED_OK);
    }
    db.cleanup();
    db = new PostgisDB();
    p.setProperty(PostgisSettings.DROP, "false");
    db.setProperties(p);
    db.init();
    db.prepare(Preparable.Stage.AFTER_LOAD, java.util.Set.of(org.geoshard.geo.contract.GeoContract.RESTAURANTS), run);
    Properties geo = new Properties();
    geo.setProperty("geo.radius.min", "200");
    geo.setProperty("geo.radius.max", "20000");
    generator = new QueryGenerator(dataset, GeoSettings.fromProperties(geo));
  }

  /** The binding's properties: the table, and how it is laid out. */
  Properties properties() throws Exception {
    return LocalPostgis.properties("t_oracle");
  }

  /** The tables or partitions a near query around this point must read. */
  Set<String> expectedTargets(GeoQuery query) throws Exception {
    return Set.of("t_oracle");
  }

  @Test
  void theLastNearQueryIsExplainedWithWhatItReadAndReturned() throws Exception {
    Properties p = properties();
    p.setProperty(PostgisSettings.DROP, "false");
    PostgisDB fresh = new PostgisDB();
    fresh.setProperties(p);
    fresh.init();
    try {
      assertThat(fresh.explainLast()).as("nothing sent yet").isEmpty();
      GeoQuery krakow = GeoQuery.firstPage(19.93658, 50.06143, 20_000, 10);
      List<GeoHit> hits = new ArrayList<>();
      assertThat(fresh.near(krakow, hits)).isEqualTo(Status.OK);
      ExplainsOperations.QueryExplain explain = fresh.explainLast().orElseThrow();
      assertThat(explain.returned()).isEqualTo(hits.size()).isPositive();
      assertThat(explain.targets()).containsExactlyInAnyOrderElementsOf(expectedTargets(krakow));
      // The index returns candidates in distance order; at least the rows returned were examined.
      assertThat(explain.examined()).isGreaterThanOrEqualTo(explain.returned());
      assertThat((Long) explain.details().get("sharedHitBlocks") + (Long) explain.details().get("sharedReadBlocks"))
          .isPositive();
    } finally {
      fresh.cleanup();
    }
  }

  @AfterAll
  void close() throws DBException {
    if (db != null) {
      db.cleanup();
    }
  }

  private record Expected(Restaurant restaurant, double distance) {
  }

  /** The answer by brute force; null when the query is ambiguous at a boundary. */
  private List<Expected> oracle(GeoQuery q) {
    List<Expected> within = new ArrayList<>();
    for (Restaurant r : all) {
      double d = Sphere.distanceMeters(q.longitude(), q.latitude(), r.longitude(), r.latitude());
      if (Math.abs(d - q.maxDistanceMeters()) < AMBIGUOUS_METERS) {
        return null;
      }
      if (d <= q.maxDistanceMeters() && d >= q.minDistanceMeters()
          && (q.filter() == null || q.filter().test(r)) && !q.excludeIds().contains(r.id())) {
        within.add(new Expected(r, d));
      }
    }
    within.sort(Comparator.comparingDouble(Expected::distance).thenComparingLong(e -> e.restaurant().id()));
    int from = Math.min(q.skip(), within.size());
    int to = Math.min(from + q.limit(), within.size());
    // A page edge between two restaurants at nearly the same distance is ambiguous too.
    if (to < within.size() && to > 0 && within.get(to).distance() - within.get(to - 1).distance() < AMBIGUOUS_METERS) {
      return null;
    }
    return within.subList(from, to);
  }

  private int compare(GeoQuery q) {
    List<Expected> expected = oracle(q);
    if (expected == null) {
      return 0;
    }
    List<GeoHit> hits = new ArrayList<>();
    assertThat(db.near(q, hits)).isEqualTo(Status.OK);
    assertThat(hits).as("results of %s", q).hasSize(expected.size());
    for (int i = 0; i < hits.size(); i++) {
      assertThat(hits.get(i).restaurant()).as("result %d of %s", i, q).isEqualTo(expected.get(i).restaurant());
      assertThat(hits.get(i).distanceMeters()).isCloseTo(expected.get(i).distance(),
          org.assertj.core.api.Assertions.within(0.5));
    }
    return 1;
  }

  @Test
  void basicFilteredAndPagedQueriesMatchTheBruteForceAnswer() {
    SplittableRandom random = new SplittableRandom(2024);
    int compared = 0;
    int nonEmpty = 0;
    for (int i = 0; i < 300; i++) {
      GeoQuery basic = generator.basic(random);
      compared += compare(basic);
      compared += compare(basic.withFilter(generator.filter(random)));
      compared += compare(basic.withSkip(10));
      List<Expected> first = oracle(basic);
      if (first != null && first.size() == 10) {
        nonEmpty++;
        double last = first.get(9).distance();
        compared += compare(basic.withMinDistance(Math.max(0, last - 0.001), java.util.Set.of(first.get(9).restaurant().id())));
      }
    }
    assertThat(compared).as("unambiguous queries compared").isGreaterThan(900);
    assertThat(nonEmpty).as("queries with a full first page").isGreaterThan(100);
  }

  @Test
  void everyFilterKindIsApplied() {
    GeoQuery around = GeoQuery.firstPage(121.45806, 31.22222, 40_000, 50);
    for (AttributeFilter filter : List.of(new AttributeFilter.CuisineEquals("Sushi"), new AttributeFilter.RatingGreaterThan(3),
        new AttributeFilter.OutsideAreaEquals(false), new AttributeFilter.PricingEquals("$$$"))) {
      List<GeoHit> hits = new ArrayList<>();
      assertThat(db.near(around.withFilter(filter), hits)).isEqualTo(Status.OK);
      assertThat(hits).hasSize(50).allSatisfy(h -> assertThat(filter.test(h.restaurant())).isTrue());
    }
  }
}
