package org.geoshard.postgis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;
import org.junit.jupiter.api.Test;

class ServerQueriesTest {
  @Test
  void aTreesSizeAddsTheRelationItselfForAPlainTableWithoutATree() {
    assertThat(ServerQueries.treeSize("pg_relation_size", "t_idx")).isEqualTo(
        "SELECT coalesce(sum(pg_relation_size(relid)), 0) FROM (SELECT relid FROM pg_partition_tree('t_idx')"
            + " UNION SELECT 't_idx'::regclass) r");
  }

  @Test
  void againstTheServerNumbersTextsRelationsAndSizesOfPlainAndPartitionedTables() throws Exception {
    Properties p = LocalPostgis.properties("t_queries");
    PostgisSettings settings = PostgisSettings.fromProperties(p);
    try (LiveConnection live = new LiveConnection(() -> Connections.open(settings), settings.maskedUrl())) {
      ServerQueries sql = new ServerQueries(live);
      assertThat(sql.postgisInstalled()).isTrue();
      assertThat(sql.scalar("SELECT 6 * 7")).isEqualTo(42);
      assertThat(sql.string("SELECT 'geo' || 'shard'")).isEqualTo("geoshard");
      sql.execute("DROP TABLE IF EXISTS t_queries_plain, t_queries_parts CASCADE");
      assertThat(sql.relationExists("t_queries_plain")).isFalse();
      sql.execute("CREATE TABLE t_queries_plain (n int)");
      sql.execute("INSERT INTO t_queries_plain SELECT generate_series(1, 100)");
      assertThat(sql.relationExists("t_queries_plain")).isTrue();
      assertThat(sql.count("t_queries_plain")).isEqualTo(100);
      assertThat(sql.treeBytes("pg_total_relation_size", "t_queries_plain"))
          .isEqualTo(sql.scalar("SELECT pg_total_relation_size('t_queries_plain')")).isPositive();

      sql.execute("CREATE TABLE t_queries_parts (n int) PARTITION BY RANGE (n)");
      sql.execute("CREATE TABLE t_queries_parts_0 PARTITION OF t_queries_parts FOR VALUES FROM (0) TO (50)");
      sql.execute("CREATE TABLE t_queries_parts_1 PARTITION OF t_queries_parts FOR VALUES FROM (50) TO (200)");
      sql.execute("INSERT INTO t_queries_parts SELECT generate_series(1, 100)");
      assertThat(sql.treeBytes("pg_total_relation_size", "t_queries_parts")).isEqualTo(
          sql.scalar("SELECT pg_total_relation_size('t_queries_parts_0') + pg_total_relation_size('t_queries_parts_1')"))
          .isPositive();
      sql.execute("DROP TABLE t_queries_plain, t_queries_parts CASCADE");
    }
  }
}
