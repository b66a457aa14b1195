package org.geoshard.postgis.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.geoshard.harness.cli.ExitCodes;
import org.geoshard.harness.cli.Main;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class PostgisBenchCommandTest {
  private static final String URL = System.getenv("GEOSHARD_POSTGIS_URL");
  private static final String USER = System.getenv("GEOSHARD_POSTGIS_USER");
  private static final String PASSWORD = System.getenv("GEOSHARD_POSTGIS_PASSWORD");

  private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

  private int bench(String... arguments) {
    return new CommandLine(new PostgisBenchCommand(new PrintStream(printed, true, StandardCharsets.UTF_8)))
        .execute(arguments);
  }

  @Test
  void theBindingAddsItsCommandUnderBenchWithoutTheHarnessKnowingIt() {
    CommandLine bench = Main.commandLine().getSubcommands().get("bench");
    assertThat(bench.getSubcommands()).containsKey("postgis");
    assertThat(Main.commandLine().getSubcommands()).doesNotContainKey("postgis");
  }

  @Test
  void badOptionsAndPropertiesAreRefusedBeforeAnythingStarts() {
    assertThat(bench("-threads", "0", "-p", "geo.scale=0.0001")).isEqualTo(ExitCodes.USAGE);
    assertThat(bench("-rounds", "0", "-p", "geo.scale=0.0001")).isEqualTo(ExitCodes.USAGE);
    assertThat(bench("-p", "postgis.tabel=x", "-p", "geo.scale=0.0001")).isEqualTo(ExitCodes.USAGE);
    assertThat(printed.toString(StandardCharsets.UTF_8)).isEmpty();
  }

  @Test
  void aTableHoldingAnotherDatasetIsRefusedRatherThanMeasured() throws Exception {
    assumeTrue(URL != null, "No PostGIS server: run 'bin/postgis start' and 'eval \"$(bin/postgis env)\"'.");
    try (Connection c = DriverManager.getConnection(URL, USER, PASSWORD); Statement s = c.createStatement()) {
      s.execute("DROP TABLE IF EXISTS t_bench_other");
      s.execute("CREATE TABLE t_bench_other AS SELECT 1 AS id");
    }
    String before = System.getProperty("geoshard.home");
    System.setProperty("geoshard.home", Path.of("..").toAbsolutePath().normalize().toString());
    try {
      assertThat(bench("-p", "geo.scale=0.0001", "-p", "postgis.url=" + URL, "-p", "postgis.user=" + USER,
          "-p", "postgis.password=" + PASSWORD, "-p", "postgis.table=t_bench_other")).isEqualTo(ExitCodes.USAGE);
    } finally {
      if (before == null) {
        System.clearProperty("geoshard.home");
      } else {
        System.setProperty("geoshard.home", before);
      }
    }
    assertThat(printed.toString(StandardCharsets.UTF_8)).doesNotContain("round 1");
  }
}
