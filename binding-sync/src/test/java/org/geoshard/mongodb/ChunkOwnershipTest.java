package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.bson.Document;
import org.bson.types.MaxKey;
import org.bson.types.MinKey;
import org.bson.types.ObjectId;
import org.junit.jupiter.api.Test;

/** The shards owning a near query's cells, from config.chunks as the cell key's preparation leaves them. */
class ChunkOwnershipTest {
  private static Document chunk(Object min, Object max, String shard) {
    return new Document("min", new Document("cell", min)).append("max", new Document("cell", max)).append("shard", shard);
  }

  /** cell:1,_id:1 as CellKeyPlan.bound cuts it: {cell: c, _id: MinKey}. */
  private static Document compound(Object minCell, Object minId, Object maxCell, Object maxId, String shard) {
    return new Document("min", new Document("cell", minCell).append("_id", minId))
        .append("max", new Document("cell", maxCell).append("_id", maxId)).append("shard", shard);
  }

  /** Three ranges over three shards, as place() leaves cell:1: lower bounds 100 and 200. */
  private static final List<Document> RANGES = List.of(
      chunk(new MinKey(), 100L, "rs0"), chunk(100L, 200L, "rs1"), chunk(200L, new MaxKey(), "rs2"));

  @Test
  void aCellBelongsToTheChunkWhoseRangeHoldsItAndABoundBelongsAbove() {
    assertThat(ChunkOwnership.owners(RANGES, new long[] {150})).containsExactly("rs1");
    assertThat(ChunkOwnership.owners(RANGES, new long[] {100})).as("min is inclusive, max exclusive")
        .containsExactly("rs1");
    assertThat(ChunkOwnership.owners(RANGES, new long[] {99, 250})).containsExactly("rs0", "rs2");
    assertThat(ChunkOwnership.owners(RANGES, new long[] {Long.MIN_VALUE, Long.MAX_VALUE}))
        .as("MinKey and MaxKey bound every number").containsExactly("rs0", "rs2");
  }

  @Test
  void aCompoundKeysCellSpansEveryIdSoASplitInsideACellGivesItTwoOwners() {
    List<Document> placed = List.of(compound(new MinKey(), new MinKey(), 100L, new MinKey(), "rs0"),
        compound(100L, new MinKey(), new MaxKey(), new MaxKey(), "rs1"));
    assertThat(ChunkOwnership.owners(placed, new long[] {100})).as("{cell: 100, _id: MinKey} opens rs1's range")
        .containsExactly("rs1");
    assertThat(ChunkOwnership.owners(placed, new long[] {99})).containsExactly("rs0");
    // An auto-split (before 6.0.3) may cut inside a cell, at an _id: the cell then lies on both sides.
    ObjectId id = new ObjectId("65f000000000000000000000");
    List<Document> cut = List.of(compound(new MinKey(), new MinKey(), 100L, id, "rs0"),
        compound(100L, id, new MaxKey(), new MaxKey(), "rs1"));
    assertThat(ChunkOwnership.owners(cut, new long[] {100})).containsExactly("rs0", "rs1");
  }

  @Test
  void theShardsHoldingChunksAreWhereAQueryWithoutCellsGoes() {
    assertThat(ChunkOwnership.holding(List.of(chunk(new MinKey(), 0L, "b"), chunk(0L, new MaxKey(), "a"))))
        .containsExactly("a", "b");
  }
}
