package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Properties;
import org.bson.Document;
import org.bson.types.MinKey;
import org.geoshard.geo.cells.CellGrid;
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
}
