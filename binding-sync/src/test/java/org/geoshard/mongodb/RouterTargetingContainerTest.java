package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.geoshard.geo.GeoSettings;
import org.geoshard.geo.GeoWorkload;
import org.geoshard.geo.cells.CellCounts;
import org.geoshard.geo.cells.CellGrid;
import org.geoshard.geo.cells.CellRanges;
import org.geoshard.geo.contract.GeoQuery;
import org.geoshard.geo.contract.RestaurantCells;
import org.geoshard.geo.dataset.RestaurantDataset;
import org.geoshard.harness.api.Preflight.Before;
import org.geoshard.harness.api.Preflight.Check;
import org.geoshard.harness.api.Preflight.Verdict;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * Preflight asks the router where the run's first near query goes: skipped before a load, and after it
 * the shards of mongos's own {@code explain} against those the preparation placed the query's cells on
 * (computed here from the ranges, not from the check's reading of config.chunks). Needs a Docker engine.
 */
@Testcontainers(disabledWithoutDocker = true)
class RouterTargetingContainerTest {
  @TempDir
  Path dir;

  /**
   * Versions expected to differ ({@link VersionRules#nearTargeting()}): 4.4 reaches every shard (a
   * warning), 6.0 on reach exactly the owners (ok), 5.0 either; a hashed key always every shard (ok).
   */
  static Stream<Arguments> clusters() {
    String chosen = System.getProperty(MongoImages.PROPERTY);
    String image = chosen != null && !chosen.isBlank() ? chosen : "mongo:8.0";
    return Stream.of(Arguments.of(image, "cell:1"), Arguments.of(image, "Name:hashed"));
  }

  @ParameterizedTest(name = "{0}, 3 shards, {1}")
  @MethodSource("clusters")
  void preflightReportsTheShardsTheRouterReachesAgainstTheOwnersOfTheQuerysCells(String image, String key)
      throws Exception {
    try (ThrowawayCluster cluster = ThrowawayCluster.start(3, image, false)) {
      Properties p = StandaloneNearContainerTest.geoProperties(dir, cluster.url("ycsb"));
      p.setProperty("mongodb.shardkey", key);
      p.setProperty("geo.cells.level", "9");  // cells of about 18 km: the test cities span 3 ranges
      RestaurantDataset dataset = GeoWorkload.datasetOf(GeoSettings.fromProperties(p));

      MongoGeoBinding empty = new MongoGeoBinding();
      empty.setProperties(p);
      empty.init();
      try {
        Check before = line(empty.preflight(Before.LOAD));
        assertThat(before).isNotNull();
        assertThat(before.detail()).startsWith("skipped: ycsb.restaurants holds no documents yet");
      } finally {
        empty.cleanup();
      }
      MongoGeoBinding loaded = StandaloneNearContainerTest.loaded(p, dataset);
      try {
        Check routed = line(loaded.preflight(Before.RUN));
        assertThat(routed).isNotNull();
        assertThat(RouterTargeting.answered(routed)).as("%s", routed).isTrue();
        SortedSet<String> all = new TreeSet<>(shardNames(cluster));
        if (key.startsWith("Name")) {
          assertThat(routed.status()).isEqualTo(Verdict.OK);
          assertThat(routed.detail()).startsWith("explain of a near query reached 3 of 3 shards")
              .contains("a broadcast, as expected");
          return;
        }
        CellGrid grid = new CellGrid(9);
        CellRanges ranges = CellRanges.balanced(CellCounts.of(dataset, grid), 3);
        List<String> byRange = List.copyOf(all);
        GeoQuery first = RestaurantCells.firstQuery(p);
        SortedSet<String> owners = new TreeSet<>();
        for (long cell : grid.covering(first)) {
          owners.add(byRange.get(ranges.rangeOf(cell)));
        }
        ServerFacts facts = new ServerFacts(MongoImages.version(image), ServerFacts.Kind.SHARDED, null, List.of(), null);
        int cells = grid.covering(first).length;
        assertThat(routed.detail()).contains("the shards owning its " + cells + " cell" + (cells == 1 ? "" : "s") + ": "
            + String.join(", ", owners));
        switch (facts.rules().nearTargeting()) {
          case TARGETED -> assertThat(routed.status()).as("%s", routed).isEqualTo(Verdict.OK);
          case EVERY_SHARD -> {
            assertThat(routed.detail()).startsWith("explain of a near query reached 3 of 3 shards");
            // Only a query whose cells lie on fewer shards than all shows the difference.
            assertThat(routed.status()).isEqualTo(owners.size() < 3 ? Verdict.WARN : Verdict.OK);
          }
          case NOT_PINNED -> assertThat(routed.status()).isIn(Verdict.OK, Verdict.WARN);
        }
      } finally {
        loaded.cleanup();
      }
    }
  }

  private static Check line(List<Check> checks) {
    return checks.stream().filter(c -> c.name().equals(RouterTargeting.NAME)).findFirst().orElse(null);
  }

  private static List<String> shardNames(ThrowawayCluster cluster) {
    try (var client = com.mongodb.client.MongoClients.create(cluster.url("ycsb"))) {
      return CellKeyPlan.shardNames(client);
    }
  }
}
