package org.geoshard.postgis;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.geoshard.geo.GeoWorkload;
import org.geoshard.harness.api.Preflight;
import org.geoshard.harness.api.Preflight.Check;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.Runner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bin/ycsb preflight postgis-geo}'s checks against the real PostGIS, before and after a load. */
class PostgisPreflightTest {
  @TempDir
  Path dir;

  private static List<Check> preflight(Properties p) throws Exception {
    PostgisDB db = new PostgisDB();
    db.setProperties(p);
    db.init();
    try {
      return db.preflight();
    } finally {
      db.cleanup();
    }
  }

  private static Check named(List<Check> checks, String name) {
    return checks.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow(() -> new AssertionError(name + " in " + checks));
  }

  @Test
  void readsVersionsTableGistIndexRowsAndSharedBuffers() throws Exception {
    Properties p = LocalPostgis.properties("t_preflight");
    p.setProperty("postgis.drop", "true");
    p.setProperty("workload", GeoWorkload.class.getName());
    p.setProperty("geo.scale", "0.0005");
    p.setProperty("results.dir", dir.resolve("load").toString());
    new Runner(RunSettings.fromProperties(Phase.LOAD, p, "pg"), p, new Binding("postgis-geo", PostgisDB.class), dir).execute();
    GeoWorkload workload = new GeoWorkload();
    workload.init(p);
    long rows = workload.dataset().size();
    p.remove("postgis.drop");
    List<Check> checks = preflight(p);
    assertThat(checks).extracting(Check::name)
        .containsExactly("server reached", "server version", "PostGIS version", "table", "GiST index", "rows", "shared_buffers");
    assertThat(checks).allMatch(c -> c.status() == Preflight.Verdict.OK, "all ok");
    assertThat(named(checks, "server version").detail()).matches("PostgreSQL \\d+.*");
    assertThat(named(checks, "PostGIS version").detail()).matches("\\d+\\.\\d+.*");
    assertThat(named(checks, "GiST index").detail()).isEqualTo("t_preflight_location_gist");
    assertThat(named(checks, "rows").detail()).isEqualTo(Long.toString(rows));
    assertThat(named(checks, "shared_buffers").detail()).matches("\\d+[kMG]B");

    List<Check> before = preflight(LocalPostgis.properties("t_preflight_absent"));
    assertThat(named(before, "table").detail()).isEqualTo("t_preflight_absent absent: a load creates it");
    assertThat(before).extracting(Check::name).doesNotContain("GiST index", "rows");
  }

  @Test
  void theGistIndexIsOursAnotherOneMissingUnderRowsOrNotYetNeeded() {
    assertThat(PostgisPreflight.gistIndex("t", 1, 10, true)).isEqualTo(Check.ok("GiST index", "t_location_gist"));
    assertThat(PostgisPreflight.gistIndex("t", 2, 10, false))
        .isEqualTo(Check.ok("GiST index", "t_location_gist (another GiST index: 2)"));
    assertThat(PostgisPreflight.gistIndex("t", 0, 10, false)).isEqualTo(Check.warn("GiST index",
        "none on t: near queries scan the table (a load builds it after the last row)"));
    assertThat(PostgisPreflight.gistIndex("t", 0, 0, false)).isEqualTo(Check.ok("GiST index", "none yet: a load builds it"));
  }
}
