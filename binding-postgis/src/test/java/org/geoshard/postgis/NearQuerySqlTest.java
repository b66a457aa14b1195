package org.geoshard.postgis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.geoshard.geo.contract.AttributeFilter;
import org.geoshard.geo.contract.GeoQuery;
import org.junit.jupiter.api.Test;

class NearQuerySqlTest {
  private static final GeoQuery BASIC = GeoQuery.firstPage(19.9, 50.1, 12_000, 10);

  @Test
  void basicQueryIsNearestWithinTheRadiusOnTheSphere() {
    NearQuerySql sql = NearQuerySql.of("restaurants", BASIC);
    assertThat(sql.sql()).isEqualTo("""
        WITH centre AS (SELECT ST_SetSRID(ST_MakePoint(?, ?), 4326)::geography AS g)
        SELECT id, name, city, cuisine, opened, rating, reviews, pricing, outside_area, lon, lat, distance FROM (
        SELECT id, name, city, cuisine, opened, rating, reviews, pricing, outside_area, \
        ST_X(location::geometry) AS lon, ST_Y(location::geometry) AS lat, ST_Distance(r.location, centre.g, false) AS distance, \
        r.location <-> centre.g AS knn
        FROM restaurants r, centre
        WHERE ST_DWithin(r.location, centre.g, ?, false)
        ORDER BY r.location <-> centre.g
        FETCH FIRST ? ROWS WITH TIES) nearest
        ORDER BY knn, id
        LIMIT ?""");
    assertThat(sql.parameters()).containsExactly(19.9, 50.1, 12_000.0, 10L, 10);
  }

  @Test
  void everyFilterKindIsOneCondition() {
    assertThat(NearQuerySql.of("t", BASIC.withFilter(new AttributeFilter.CuisineEquals("Vegan"))).sql())
        .contains("\n  AND r.cuisine = ?\n");
    assertThat(NearQuerySql.of("t", BASIC.withFilter(new AttributeFilter.RatingGreaterThan(3))).sql())
        .contains("\n  AND r.rating > ?\n");
    assertThat(NearQuerySql.of("t", BASIC.withFilter(new AttributeFilter.OutsideAreaEquals(true))).sql())
        .contains("\n  AND r.outside_area = ?\n");
    NearQuerySql pricing = NearQuerySql.of("t", BASIC.withFilter(new AttributeFilter.PricingEquals("$$")));
    assertThat(pricing.sql()).contains("\n  AND r.pricing = ?\n");
    assertThat(pricing.parameters()).containsExactly(19.9, 50.1, 12_000.0, "$$", 10L, 10);
  }

  @Test
  void pagesSkipOrStartFromTheLastDistance() {
    NearQuerySql skip = NearQuerySql.of("t", BASIC.withSkip(10));
    assertThat(skip.sql()).endsWith("ORDER BY r.location <-> centre.g\nFETCH FIRST ? ROWS WITH TIES) nearest\n"
        + "ORDER BY knn, id\nOFFSET ?\nLIMIT ?");
    assertThat(skip.parameters()).containsExactly(19.9, 50.1, 12_000.0, 20L, 10, 10);

    NearQuerySql after = NearQuerySql.of("t", BASIC.withMinDistance(812.5, Set.of(9L, 4L)));
    assertThat(after.sql()).contains("\n  AND ST_Distance(r.location, centre.g, false) >= ?\n  AND NOT (r.id = ANY (?))\n");
    assertThat(after.parameters().get(3)).isEqualTo(812.5);
    assertThat((Long[]) after.parameters().get(4)).containsExactly(4L, 9L);
  }

  @Test
  void theCoveringIsOnePlaceholderPerCellAfterTheRadius() {
    NearQuerySql sql = NearQuerySql.of("t", BASIC.withFilter(new AttributeFilter.RatingGreaterThan(2)), new long[] {-5, 7});
    assertThat(sql.sql()).contains("WHERE ST_DWithin(r.location, centre.g, ?, false)\n  AND r.cell IN (?, ?)\n  AND r.rating > ?\n");
    assertThat(sql.parameters()).containsExactly(19.9, 50.1, 12_000.0, -5L, 7L, 2, 10L, 10);
    assertThat(NearQuerySql.of("t", BASIC, null)).isEqualTo(NearQuerySql.of("t", BASIC));
  }

  @Test
  void oneTextsAnswersEveryShapeWithTheTextAFreshBuildGives() {
    List<AttributeFilter> filters = Arrays.asList(null, new AttributeFilter.CuisineEquals("Vegan"),
        new AttributeFilter.RatingGreaterThan(3), new AttributeFilter.OutsideAreaEquals(true), new AttributeFilter.PricingEquals("$"));
    List<long[]> coverings = Arrays.asList(null, new long[] {1}, new long[] {1, 2}, new long[] {4, 5, 6}, new long[] {7, 8, 9, 10});
    List<GeoQuery> pages = List.of(BASIC, BASIC.withSkip(10), BASIC.withMinDistance(500, Set.of()),
        BASIC.withMinDistance(500, Set.of(3L)), BASIC.withMinDistance(0, Set.of(3L)).withSkip(20));
    NearQuerySql.Texts shared = new NearQuerySql.Texts("t");
    Map<Integer, NearQuerySql.Shape> shapeOfKey = new HashMap<>();
    int queries = 0;
    for (int round = 0; round < 2; round++) {
      for (AttributeFilter filter : filters) {
        for (long[] cells : coverings) {
          for (GeoQuery page : pages) {
            GeoQuery q = filter == null ? page : page.withFilter(filter);
            assertThat(shared.text(q, cells)).isEqualTo(NearQuerySql.of(new NearQuerySql.Texts("t"), q, cells).sql());
            NearQuerySql.Shape shape = NearQuerySql.Shape.of(q, cells);
            assertThat(shapeOfKey.computeIfAbsent(shape.key(), k -> shape))
                .as("one key, one shape").isEqualTo(shape);
            queries++;
          }
        }
      }
    }
    assertThat(queries).isEqualTo(250);
    assertThat(new HashSet<>(shapeOfKey.values())).as("distinct shapes, distinct keys").hasSameSizeAs(shapeOfKey.keySet());
  }
}
