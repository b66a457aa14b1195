package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.bson.Document;
import org.geoshard.geo.GeoSettings;
import org.geoshard.geo.GeoWorkload;
import org.geoshard.geo.cells.CellCounts;
import org.geoshard.geo.cells.CellGrid;
import org.geoshard.geo.cells.CellRanges;
import org.geoshard.geo.contract.AttributeFilter;
import org.geoshard.geo.contract.GeoHit;
import org.geoshard.geo.contract.GeoQuery;
import org.geoshard.geo.dataset.RestaurantDataset;
import org.geoshard.harness.api.Preparable.Stage;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.testcontainers.junit.jupiter.Testcontainers;
import site.ycsb.Status;

/**
 * The ranged S2-cell key on a real sharded cluster: preparation places one balanced range per shard
 * before the load (moveRange on 6.0+, moveChunk before), every shard holds the restaurants its range
 * should, the near query with its covering answers exactly as the query without it (ids, order,
 * distances) and as the oracle, and mongos's {@code explain} shows it sent only to the shards that own
 * the covering's cells, where the query without the covering goes to every shard. Skipped where no
 * Docker engine runs.
 */
@Testcontainers(disabledWithoutDocker = true)
class CellKeyContainerTest {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(CellKeyContainerTest.class);
  @TempDir
  Path dir;

  /**
   * Versions expected to differ ({@link VersionRules}): 4.4 moves ranges with moveChunk and its router
   * sends every near query to every shard, covering or not; 5.0 moves with moveChunk and its targeting is
   * not pinned (either answer is accepted, and printed); 6.0 on move with moveRange and target.
   */
  static Stream<Arguments> clusters() {
    String chosen = System.getProperty(MongoImages.PROPERTY);
    if (chosen != null && !chosen.isBlank()) {
      return Stream.of(Arguments.of(chosen, 3, "cell:1"), Arguments.of(chosen, 2, "cell:1,_id:1"));
    }
    return Stream.of(
        Arguments.of("mongo:8.0", 3, "cell:1"),
        Arguments.of("mongo:4.4", 2, "cell:1,_id:1"));
  }

  @ParameterizedTest(name = "{0}, {1} shards, {2}")
  @MethodSource("clusters")
  void rangesPlacedQueriesTargetedAnswersUnchanged(String image, int shards, String key) throws Exception {
    try (ThrowawayCluster cluster = ThrowawayCluster.start(shards, image, false)) {
      Properties p = StandaloneNearContainerTest.geoProperties(dir, cluster.url("ycsb"));
      p.setProperty("mongodb.shardkey", key);
      // Level 9 (cells of about 18 km): the five test cities span enough cells for 3 ranges.
      p.setProperty("geo.cells.level", "9");
      GeoSettings settings = GeoSettings.fromProperties(p);
      RestaurantDataset dataset = GeoWorkload.datasetOf(settings);
      CellGrid grid = new CellGrid(9);
      CellRanges ranges = CellRanges.balanced(CellCounts.of(dataset, grid), shards);

      MongoGeoBinding loader = new MongoGeoBinding();
      loader.setProperties(p);
      loader.init();
      RecordingSteps before = new RecordingSteps();
      loader.prepare(Stage.BEFORE_LOAD, java.util.Set.of(org.geoshard.geo.contract.GeoContract.RESTAURANTS), before);
      Map<String, Object> placed = before.steps.get("place cell ranges");
      ServerFacts facts = new ServerFacts(MongoImages.version(image), ServerFacts.Kind.SHARDED, null, List.of(), null);
      assertThat(placed).isNotNull().containsEntry("command", facts.rules().hasMoveRange() ? "moveRange" : "moveChunk")
          .containsKey("conflictRetries");
      LOG.info("{}: {} ConflictingOperationInProgress refusals waited out while placing the ranges", image,
          placed.get("conflictRetries"));
      assertThat((long[]) placed.get("lowerBounds")).containsExactly(ranges.lowerBounds());
      @SuppressWarnings("unchecked")
      List<String> shardNames = (List<String>) placed.get("shards");
      for (long k = 0; k < dataset.size(); k++) {
        assertThat(loader.insertRestaurant(dataset.restaurant(k))).isIn(Status.OK, Status.BATCHED_OK);
      }
      loader.cleanup();

      Properties again = new Properties();
      again.putAll(p);
      again.setProperty("mongodb.drop", "false");
      MongoGeoBinding covered = binding(again, true);
      RecordingSteps second = new RecordingSteps();
      covered.prepare(Stage.BEFORE_LOAD, java.util.Set.of(org.geoshard.geo.contract.GeoContract.RESTAURANTS), second);
      assertThat(second.steps.get("place cell ranges")).containsEntry("splits", 0).containsEntry("moves", 0);
      RecordingSteps afterLoad = new RecordingSteps();
      covered.prepare(Stage.AFTER_LOAD, java.util.Set.of(org.geoshard.geo.contract.GeoContract.RESTAURANTS), afterLoad);
      assertThat(afterLoad.steps.get("check cell ranges")).containsEntry("chunksOffTheirRange", 0);
      MongoGeoBinding plain = binding(again, false);

      try (MongoClient client = MongoClients.create(cluster.url("ycsb"))) {
        Map<String, Long> documents = TopologyReader.documentsPerShard(client, MongoSettings.fromProperties(again));
        for (int i = 0; i < shards; i++) {
          assertThat(documents.getOrDefault(shardNames.get(i), 0L)).as("documents on %s", shardNames.get(i))
              .isEqualTo(ranges.restaurants(i));
        }

        NearOracle oracle = new NearOracle(dataset);
        CellKeyPlan plan = CellKeyPlan.of(ShardKey.of(key), again);
        int compared = 0;
        int fewerShards = 0;
        int targetedQueries = 0;
        List<GeoHit> expected = new ArrayList<>();
        List<GeoHit> actual = new ArrayList<>();
        for (GeoQuery basic : NearOracle.basics(dataset, settings, 40, 31)) {
          for (GeoQuery q : List.of(basic, basic.withFilter(new AttributeFilter.RatingGreaterThan(2)),
              basic.withSkip(basic.limit()))) {
            assertThat(covered.near(q, actual)).isEqualTo(Status.OK);
            assertThat(plain.near(q, expected)).isEqualTo(Status.OK);
            assertThat(actual).as("%s", q).isEqualTo(expected);
            if (!oracle.ambiguous(q)) {
              oracle.assertAnswers("cell key " + q, q, actual);
              compared++;
            }
          }
          Set<String> owners = new TreeSet<>();
          Arrays.stream(grid.covering(basic)).forEach(cell -> owners.add(shardNames.get(ranges.rangeOf(cell))));
          Set<String> reached = explainedShards(client, plan.near(basic, MongoSettings.MaxDistance.SCALED));
          switch (facts.rules().nearTargeting()) {
            case TARGETED -> assertThat(reached).as("shards of %s", basic).isEqualTo(owners);
            case EVERY_SHARD -> assertThat(reached).as("shards of %s", basic).hasSize(shards);
            case NOT_PINNED -> assertThat(reached).as("shards of %s", basic).isIn(owners, new TreeSet<>(shardNames));
          }
          assertThat(explainedShards(client, NearQuery.of(basic))).hasSize(shards);
          fewerShards += owners.size() < shards ? 1 : 0;
          targetedQueries += reached.size() < shards ? 1 : 0;
        }
        assertThat(compared).isGreaterThan(60);
        assertThat(fewerShards).as("queries whose covering lies on fewer shards than all").isGreaterThan(20);
        LOG.info("{}: {} near queries with the covering reached fewer shards than all ({})", image, targetedQueries,
            facts.rules().nearTargeting());
        if (facts.rules().nearTargeting() == VersionRules.NearTargeting.EVERY_SHARD) {
          assertThat(targetedQueries).isZero();
        }
      } finally {
        covered.cleanup();
        plain.cleanup();
      }
    }
  }

  private static MongoGeoBinding binding(Properties base, boolean covering) throws Exception {
    Properties p = new Properties();
    p.putAll(base);
    p.setProperty("geo.cells.covering", Boolean.toString(covering));
    MongoGeoBinding db = new MongoGeoBinding();
    db.setProperties(p);
    db.init();
    return db;
  }

  /** The shards mongos's query plan sends a near query to ({@code explain}, queryPlanner). */
  private static Set<String> explainedShards(MongoClient client, NearQuery near) {
    Document explain = client.getDatabase("ycsb").runCommand(new Document("explain", near.toFindCommand("restaurants"))
        .append("verbosity", "queryPlanner"));
    Document winning = explain.get("queryPlanner", Document.class).get("winningPlan", Document.class);
    Set<String> shards = new TreeSet<>();
    for (Document shard : winning.getList("shards", Document.class)) {
      shards.add(shard.getString("shardName"));
    }
    return shards;
  }
}
