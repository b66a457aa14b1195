package org.geoshard.postgis.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.geoshard.geo.contract.GeoQuery;
import org.geoshard.postgis.NearQuerySql;
import org.junit.jupiter.api.Test;

class NearPgbenchTest {
  @Test
  void theScriptSendsTheBindingsQueryAroundACentreLookedUpById() {
    String script = NearPgbench.script("t", 10, 5000, 50000);
    String binding = NearQuerySql.of("t", GeoQuery.firstPage(1, 2, 3, 10)).sql();
    String expected = binding.replace("ST_SetSRID(ST_MakePoint(?, ?), 4326)::geography", "(SELECT g FROM t_centres WHERE id = :c)")
        .replaceFirst("\\?", ":r").replaceFirst("\\?", ":n").replaceFirst("\\?", ":n");
    assertThat(script).contains("\\set c random(1, :centres)\n\\set r random(5000, 50000)\n\\set n 10\n" + expected + ";\n");
  }

  /** The script in the repository is the one the command writes for its default table and workload file. */
  @Test
  void theCommittedScriptIsTheGeneratedOne() throws Exception {
    Path committed = Path.of("bench/near.pgbench");
    assertThat(Files.readString(committed))
        .isEqualTo(NearPgbench.script(PostgisBenchCommand.DEFAULT_TABLE, 10, 5000, 50000));
  }
}
