package org.geoshard.postgis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.geoshard.harness.api.ExplainsOperations.QueryExplain;
import org.junit.jupiter.api.Test;

/** EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) answers of PostgreSQL 15, cut to the fields read. */
class PlanExplainTest {
  /** A filtered near query on the unpartitioned table (recorded from bin/postgis's server). */
  private static final String UNPARTITIONED = """
      [{"Plan": {"Node Type": "Limit", "Actual Rows": 10, "Actual Loops": 1, "Shared Hit Blocks": 151,
        "Shared Read Blocks": 0, "Plans": [{"Node Type": "Result", "Actual Rows": 10, "Actual Loops": 1,
        "Plans": [{"Node Type": "Sort", "Actual Rows": 10, "Actual Loops": 1, "Plans": [
        {"Node Type": "Index Scan", "Index Name": "restaurants_location_gist", "Relation Name": "restaurants",
         "Actual Rows": 19, "Actual Loops": 1, "Rows Removed by Index Recheck": 0, "Rows Removed by Filter": 26,
         "Shared Hit Blocks": 145, "Shared Read Blocks": 0}]}]}]}, "Execution Time": 43.448}]
      """;

  /**
   * A near query over a table partitioned in three: one partition pruned when the executor started,
   * one whose scan never ran (loops 0), one read with a bitmap scan over two loops.
   */
  private static final String PARTITIONED = """
      [{"Plan": {"Node Type": "Limit", "Actual Rows": 4, "Actual Loops": 1, "Shared Hit Blocks": 40,
        "Shared Read Blocks": 2, "Plans": [{"Node Type": "Append", "Actual Rows": 4, "Actual Loops": 1,
        "Subplans Removed": 1, "Plans": [
        {"Node Type": "Index Scan", "Relation Name": "r_cells_p0", "Actual Rows": 0, "Actual Loops": 0},
        {"Node Type": "Bitmap Heap Scan", "Relation Name": "r_cells_p2", "Actual Rows": 2.5, "Actual Loops": 2,
         "Rows Removed by Index Recheck": 1, "Rows Removed by Filter": 3, "Plans": [
          {"Node Type": "Bitmap Index Scan", "Index Name": "r_cells_p2_location_idx", "Actual Rows": 7,
           "Actual Loops": 2}]},
        {"Node Type": "CTE Scan", "CTE Name": "centre", "Actual Rows": 1, "Actual Loops": 1}]}]},
        "Execution Time": 1.5}]
      """;

  @Test
  void anUnpartitionedQueryReadsOneTableAndExaminesWhatItsFilterRemovedToo() {
    QueryExplain e = PlanExplain.parse(UNPARTITIONED);
    assertThat(e.targets()).containsExactly("restaurants");
    assertThat(e.returned()).isEqualTo(10);
    assertThat(e.examined()).isEqualTo(19 + 26);
    assertThat(e.details()).containsEntry("sharedHitBlocks", 151L).containsEntry("sharedReadBlocks", 0L)
        .containsEntry("subplansRemoved", 0L).containsEntry("executionMs", 43.448);
  }

  @Test
  void aPartitionedQueryNamesOnlyThePartitionsItScannedAndCountsPerLoopFiguresTimesTheLoops() {
    QueryExplain e = PlanExplain.parse(PARTITIONED);
    assertThat(e.targets()).containsExactly("r_cells_p2");
    assertThat(e.returned()).isEqualTo(4);
    assertThat(e.examined()).isEqualTo(Math.round((2.5 + 1 + 3) * 2));
    assertThat(e.details()).containsEntry("subplansRemoved", 1L).containsEntry("sharedReadBlocks", 2L);
  }

  @Test
  void somethingElseIsRefusedInOneSentence() {
    assertThatThrownBy(() -> PlanExplain.parse("{\"rows\": 1}")).hasMessage("The EXPLAIN answer holds no Plan.");
    assertThatThrownBy(() -> PlanExplain.parse("QUERY PLAN")).hasMessageStartingWith("Not an EXPLAIN");
  }
}
