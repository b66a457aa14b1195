package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Properties;
import org.bson.Document;
import org.bson.types.MinKey;
import org.geoshard.geo.cells.CellCounts;
import org.geoshard.geo.cells.CellGrid;
import org.geoshard.geo.cells.CellRanges;
import org.geoshard.geo.contract.GeoQuery;
import org.geoshard.geo.contract.Restaurant;
import org.junit.jupiter.api.Test;

class CellKeyPlanTest {
  private static final Restaurant KRAKOW = new Restaurant(7, "Sushi Bar 1", "Kraków", "Sushi", 2001, 4, 10, "$$",
      true, 19.93658, 50.06143);
  private static final GeoQuery QUERY = GeoQuery.firstPage(19.9, 50.1, 30_000, 10);

  private static CellKeyPlan plan(String key, String... properties) throws Exception {
    Properties p = new Properties();
    for (int i = 0; i < properties.length; i += 2) {
      p.setProperty(properties[i], properties[i + 1]);
    }
    return CellKeyPlan.of(ShardKey.of(key), p);
  }

  @Test
  void withTheCellKeyEachRestaurantCarriesItsCellAndEachQueryItsCovering() throws Exception {
    CellKeyPlan plan = plan("cell:1", "geo.cells.level", "8");
    CellGrid grid = new CellGrid(8);
    assertThat(plan.active()).isTrue();
    Document document = plan.document(KRAKOW);
    assertThat(document.get("cell")).isEqualTo(grid.cellOf(KRAKOW.longitude(), KRAKOW.latitude()));
    assertThat(document).containsAllEntriesOf(RestaurantDocuments.toDocument(KRAKOW));

    NearQuery near = plan.near(QUERY, MongoSettings.MaxDistance.DRAWN);
    NearQuery plain = NearQuery.of(QUERY);
    List<Long> covering = java.util.Arrays.stream(grid.covering(QUERY)).boxed().toList();
    assertThat(near.filter().get("cell", Document.class)).isEqualTo(new Document("$in", covering));
    // Everything else is the query without the covering, in the same order ($nearSphere first).
    Document rest = new Document(near.filter());
    rest.remove("cell");
    assertThat(rest).isEqualTo(plain.filter());
    assertThat(List.copyOf(near.filter().keySet()).get(0)).isEqualTo(Restaurant.LOCATION);
    assertThat(near.skip()).isEqualTo(plain.skip());
    assertThat(near.limit()).isEqualTo(plain.limit());
  }

  @Test
  void withoutTheCoveringQueriesAreUnchangedButDocumentsStillCarryTheCell() throws Exception {
    CellKeyPlan plan = plan("cell:1,_id:1", "geo.cells.covering", "false");
    assertThat(plan.near(QUERY, MongoSettings.MaxDistance.DRAWN)).isEqualTo(NearQuery.of(QUERY));
    assertThat(plan.document(KRAKOW).containsKey("cell")).isTrue();
  }

  @Test
  void otherKeysLeaveDocumentsAndQueriesAsTheyWere() throws Exception {
    CellKeyPlan plan = plan("Name:hashed");
    assertThat(plan.active()).isFalse();
    assertThat(plan.document(KRAKOW)).isEqualTo(RestaurantDocuments.toDocument(KRAKOW));
    assertThat(plan.near(QUERY, MongoSettings.MaxDistance.DRAWN)).isEqualTo(NearQuery.of(QUERY));
    assertThat(CellKeyPlan.of(null, new Properties()).active()).isFalse();
  }

  @Test
  void theCompoundKeysBoundsStartAtTheCellsFirstId() throws Exception {
    assertThat(plan("cell:1,_id:1").bound(42)).isEqualTo(new Document("cell", 42L).append("_id", new MinKey()));
    assertThat(plan("cell:1").bound(42)).isEqualTo(new Document("cell", 42L));
  }

  @Test
  void aHashedOrLaterCellIsRefusedInOneSentence() {
    assertThat(CellKeyPlan.problem(ShardKey.of("cell:hashed"))).contains("mongodb.shardkey").contains("ranged and first");
    assertThat(CellKeyPlan.problem(ShardKey.of("_id:1,cell:1"))).contains("ranged and first");
    assertThat(CellKeyPlan.problem(ShardKey.of("cell:1,_id:1"))).isNull();
    assertThat(CellKeyPlan.problem(ShardKey.of("Name:hashed"))).isNull();
    Properties p = new Properties();
    p.setProperty("mongodb.shardkey", "cell:hashed");
    assertThat(new MongoProperties().problems(p)).anySatisfy(problem -> assertThat(problem).contains("ranged and first"));
  }

  /** Three ranges of 100 restaurants each: cells 10 and 20 in the first, 30 in the second, 40 in the third. */
  private static CellRanges threeRanges() {
    return CellRanges.balanced(CellCounts.of(9, new long[] {10, 20, 30, 40}, new long[] {50, 50, 100, 100}), 3);
  }

  private static Document chunk(Object min, Object max, String shard) {
    return new Document("min", new Document("cell", min).append("_id", new MinKey()))
        .append("max", new Document("cell", max).append("_id", new MinKey())).append("shard", shard);
  }

  @Test
  void everyChunkOffItsRangesShardMovesWithItsOwnBoundsSoThatAChunkSplitByTheBalancerStillMoves() {
    CellRanges ranges = threeRanges();
    assertThat(ranges.lowerBounds()).containsExactly(30, 40);
    List<String> shards = List.of("rs0", "rs1", "rs2");
    List<Document> chunks = List.of(
        chunk(new MinKey(), 25L, "rs0"), chunk(25L, 30L, "rs2"),  // range 0, its second chunk moved away
        chunk(30L, 35L, "rs1"), chunk(35L, 40L, "rs1"),            // range 1 in two chunks, both home
        chunk(40L, new org.bson.types.MaxKey(), "rs0"));           // range 2 never placed
    List<CellKeyPlan.Move> moves = CellKeyPlan.misplaced(chunks, ranges, shards);
    assertThat(moves).containsExactly(
        new CellKeyPlan.Move(chunks.get(1).get("min", Document.class), chunks.get(1).get("max", Document.class), "rs0"),
        new CellKeyPlan.Move(chunks.get(4).get("min", Document.class), chunks.get(4).get("max", Document.class), "rs2"));
    assertThat(CellKeyPlan.misplaced(List.of(chunk(new MinKey(), 30L, "rs0"), chunk(30L, 40L, "rs1"),
        chunk(40L, new org.bson.types.MaxKey(), "rs2")), ranges, shards)).as("placed").isEmpty();
  }

  @Test
  void chunksAreReadByNsOnAFeatureCompatibility44CatalogAndByUuidOnceTheCollectionHasATimestamp() {
    try (InProcessMongo mongo = new InProcessMongo();
        com.mongodb.client.MongoClient client = com.mongodb.client.MongoClients.create(mongo.url("config"))) {
      // As the catalog stores it: binary subtype 4.
      org.bson.types.Binary uuid = new org.bson.types.Binary(org.bson.BsonBinarySubType.UUID_STANDARD, new byte[16]);
      var chunks = client.getDatabase("config").getCollection("chunks");
      // 4.4 (or FCV 4.4): chunks carry ns; the collection entry has a uuid but no timestamp.
      chunks.insertOne(chunk(new MinKey(), 30L, "rs0").append("ns", "ycsb.restaurants"));
      // 5.0+: chunks carry the uuid only.
      chunks.insertOne(chunk(new MinKey(), 30L, "rs1").append("uuid", uuid));
      chunks.insertOne(chunk(30L, 40L, "rs1").append("uuid", uuid));
      Document fcv44 = new Document("_id", "ycsb.restaurants").append("key", new Document("cell", 1)).append("uuid", uuid);
      assertThat(CellKeyPlan.chunks(client, fcv44)).extracting(c -> c.getString("shard")).containsExactly("rs0");
      Document fcv50 = new Document(fcv44).append("timestamp", new org.bson.BsonTimestamp(1, 1));
      assertThat(CellKeyPlan.chunks(client, fcv50)).extracting(c -> c.getString("shard")).containsExactly("rs1", "rs1");
    }
  }
}
