package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.geoshard.geo.GeoSettings;
import org.geoshard.geo.contract.GeoHit;
import org.geoshard.geo.contract.GeoQuery;
import org.geoshard.geo.contract.Restaurant;
import org.geoshard.geo.dataset.RestaurantDataset;
import org.geoshard.geo.dataset.Sphere;
import org.geoshard.geo.query.QueryGenerator;

/**
 * The brute-force answer to a near query over a dataset held in memory (haversine on the workload's
 * sphere, every restaurant looked at), and the comparison of a database's answer with it: the same
 * ids at each distance, ties in any order (a page boundary may cut a group of equal distances
 * anywhere, so the first and last groups of a page need only come from the tied candidates).
 */
final class NearOracle {
  /** Closer than this to a query's distance bound, floating-point noise may decide inclusion. */
  static final double AMBIGUOUS_METERS = 1e-4;
  private static final Comparator<GeoHit> ORDER = Comparator.comparingDouble(GeoHit::distanceMeters)
      .thenComparingLong(h -> h.restaurant().id());

  private final List<Restaurant> restaurants;

  NearOracle(RestaurantDataset dataset) {
    restaurants = new ArrayList<>();
    for (long k = 0; k < dataset.size(); k++) {
      restaurants.add(dataset.restaurant(k));
    }
  }

  /** Every restaurant the query selects, before skip and limit, nearest first, ties by id. */
  List<GeoHit> candidates(GeoQuery q) {
    List<GeoHit> out = new ArrayList<>();
    for (Restaurant r : restaurants) {
      double d = Sphere.distanceMeters(q.longitude(), q.latitude(), r.longitude(), r.latitude());
      if (d <= q.maxDistanceMeters() && d >= q.minDistanceMeters() && !q.excludeIds().contains(r.id())
          && (q.filter() == null || q.filter().test(r))) {
        out.add(new GeoHit(r, d));
      }
    }
    out.sort(ORDER);
    return out;
  }

  /** The page: candidates after skip, at most limit. */
  List<GeoHit> answer(GeoQuery q) {
    List<GeoHit> all = candidates(q);
    int from = Math.min(q.skip(), all.size());
    return all.subList(from, Math.min(all.size(), from + q.limit()));
  }

  /** True when a restaurant lies so close to a distance bound that the server's arithmetic may differ from ours. */
  boolean ambiguous(GeoQuery q) {
    for (Restaurant r : restaurants) {
      double d = Sphere.distanceMeters(q.longitude(), q.latitude(), r.longitude(), r.latitude());
      if (Math.abs(d - q.maxDistanceMeters()) < AMBIGUOUS_METERS
          || (q.minDistanceMeters() > 0 && Math.abs(d - q.minDistanceMeters()) < AMBIGUOUS_METERS)) {
        return true;
      }
    }
    return false;
  }

  /** Asserts that {@code actual} is the page of {@code q}: same distances, same ids at each distance. */
  void assertAnswers(String what, GeoQuery q, List<GeoHit> actual) {
    List<GeoHit> expected = answer(q);
    assertThat(actual).as("%s: number of results", what).hasSize(expected.size());
    Map<Double, Set<Long>> expectedGroups = groups(expected);
    Map<Double, Set<Long>> actualGroups = groups(actual);
    assertThat(actualGroups.keySet()).as("%s: distances", what).containsExactlyElementsOf(expectedGroups.keySet());
    List<Double> distances = new ArrayList<>(expectedGroups.keySet());
    Map<Double, Set<Long>> allGroups = groups(candidates(q));
    for (int i = 0; i < distances.size(); i++) {
      double d = distances.get(i);
      boolean edge = i == 0 || i == distances.size() - 1;
      if (edge) {
        assertThat(allGroups.get(d)).as("%s: ids at %.4f m (a page edge)", what, d).containsAll(actualGroups.get(d));
      } else {
        assertThat(actualGroups.get(d)).as("%s: ids at %.4f m", what, d).isEqualTo(expectedGroups.get(d));
      }
    }
    for (GeoHit hit : actual) {
      assertThat(hit.distanceMeters()).as("%s: distance of %d", what, hit.restaurant().id())
          .isEqualTo(Sphere.distanceMeters(q.longitude(), q.latitude(), hit.restaurant().longitude(),
              hit.restaurant().latitude()));
    }
  }

  private static Map<Double, Set<Long>> groups(List<GeoHit> hits) {
    Map<Double, Set<Long>> out = new LinkedHashMap<>();
    for (GeoHit hit : hits) {
      out.computeIfAbsent(hit.distanceMeters(), k -> new HashSet<>()).add(hit.restaurant().id());
    }
    return out;
  }

  /** The workload's next page by distance after {@code hits} (as its QuerySession makes it). */
  static GeoQuery afterLastHit(GeoQuery basic, List<GeoHit> hits) {
    double last = hits.get(hits.size() - 1).distanceMeters();
    Set<Long> atLast = new HashSet<>();
    for (GeoHit hit : hits) {
      if (hit.distanceMeters() >= last - 0.001) {
        atLast.add(hit.restaurant().id());
      }
    }
    return basic.withMinDistance(Math.max(0, last - 0.001), atLast);
  }

  /** Seeded sessions of the study's shapes: each basic query with each filter kind, a skip page and a min-distance page. */
  static List<GeoQuery> basics(RestaurantDataset dataset, GeoSettings settings, int count, long seed) {
    QueryGenerator generator = new QueryGenerator(dataset, settings);
    SplittableRandom random = new SplittableRandom(seed);
    List<GeoQuery> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(generator.basic(random));
    }
    return out;
  }
}
