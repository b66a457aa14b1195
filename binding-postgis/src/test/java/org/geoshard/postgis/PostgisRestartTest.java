package org.geoshard.postgis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.geoshard.geo.GeoWorkload;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.output.RunResult;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.Runner;
import org.geoshard.harness.measure.StopReason;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PostgreSQL stopped and started again in the middle of a run: the failed operations are errors,
 * never throughput, and the binding reconnects by itself once the server is back. The server is a
 * throwaway cluster of this test's own (bin/postgis with its own directory and a free port), so the
 * shared private server of the other tests is never stopped. Skipped where bin/postgis cannot run
 * (its packages are installed by bin/test and CI through 'bin/postgis start').
 */
class PostgisRestartTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path SCRIPT = Path.of("..", "bin", "postgis").toAbsolutePath().normalize();
  private static Path clusterRoot;
  private static int port;
  private static Properties connection;

  @TempDir
  Path dir;

  @BeforeAll
  static void startThrowawayCluster() throws Exception {
    assumeTrue(Files.isExecutable(SCRIPT) && postgresqlInstalled(),
        "PostgreSQL with PostGIS is not installed: run 'bin/postgis start' once (bin/test does).");
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    // The server runs as 'postgres' when the tests run as root: its directory must be reachable.
    clusterRoot = Files.createTempDirectory("geoshard-restart-", PosixFilePermissions.asFileAttribute(
        PosixFilePermissions.fromString("rwxr-xr-x")));
    postgis("start");
    connection = new Properties();
    for (String line : postgis("env").split("\n")) {
      // export GEOSHARD_POSTGIS_URL='jdbc:...'
      String[] kv = line.replace("export ", "").split("=", 2);
      connection.setProperty(kv[0], kv[1].replaceAll("^'|'$", ""));
    }
  }

  /** Some major is installed with PostGIS, as bin/postgis leaves it; bin/postgis chooses which (13 to 17). */
  private static boolean postgresqlInstalled() throws IOException {
    Path root = Path.of("/usr/lib/postgresql");
    if (!Files.isDirectory(root)) {
      return false;
    }
    try (Stream<Path> majors = Files.list(root)) {
      return majors.anyMatch(major -> Files.isExecutable(major.resolve("bin/initdb")) && Files.isRegularFile(
          Path.of("/usr/share/postgresql", major.getFileName().toString(), "extension", "postgis.control")));
    }
  }

  @AfterAll
  static void removeThrowawayCluster() throws Exception {
    if (clusterRoot == null) {
      return;
    }
    try {
      postgis("stop");
    } finally {
      try (Stream<Path> files = Files.walk(clusterRoot)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /** Runs bin/postgis on the throwaway cluster; returns its standard output. */
  private static String postgis(String command) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder("bash", SCRIPT.toString(), command).redirectErrorStream(false);
    builder.environment().put("GEOSHARD_PG_DIR", clusterRoot.resolve("data").toString());
    builder.environment().put("GEOSHARD_PG_PORT", Integer.toString(port));
    builder.redirectError(ProcessBuilder.Redirect.INHERIT);
    Process process = builder.start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(180, TimeUnit.SECONDS)).as("bin/postgis " + command + " ends").isTrue();
    assertThat(process.exitValue()).as("bin/postgis " + command).isZero();
    return out;
  }

  private Properties properties() {
    Properties p = new Properties();
    p.setProperty(PostgisSettings.URL, connection.getProperty("GEOSHARD_POSTGIS_URL"));
    p.setProperty(PostgisSettings.USER, connection.getProperty("GEOSHARD_POSTGIS_USER"));
    p.setProperty(PostgisSettings.PASSWORD, connection.getProperty("GEOSHARD_POSTGIS_PASSWORD"));
    p.setProperty(PostgisSettings.TABLE, "t_restart");
    p.setProperty(PostgisSettings.DROP, "true");
    p.setProperty("workload", GeoWorkload.class.getName());
    p.setProperty("geo.scale", "0.0005");
    p.setProperty("status.interval", "0");
    p.setProperty("stats.warmup", "0");
    return p;
  }

  @Test
  void aRunAcrossARestartCountsFailuresAsErrorsAndRecovers() throws Exception {
    Properties p = properties();
    p.setProperty("threadcount", "2");
    p.setProperty("results.dir", dir.resolve("load").toString());
    RunResult load = new Runner(RunSettings.fromProperties(Phase.LOAD, p, "restart"), p,
        new Binding("postgis-geo", PostgisDB.class), dir).execute();
    assertThat(load.hasFailures()).isFalse();

    p.setProperty(PostgisSettings.DROP, "false");
    p.setProperty("operationcount", "0");
    p.setProperty("maxexecutiontime", "120");  // a bound only: the test stops the run itself
    p.setProperty("results.dir", dir.resolve("run").toString());
    Runner runner = new Runner(RunSettings.fromProperties(Phase.RUN, p, "restart"), p,
        new Binding("postgis-geo", PostgisDB.class), dir);
    CompletableFuture<RunResult> running = CompletableFuture.supplyAsync(() -> {
      try {
        return runner.execute();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    Path run = dir.resolve("run");
    // Waits on what the run folder shows, never on a guess of how long a busy machine takes.
    awaitSeconds(run, okSeconds -> okSeconds.size() >= 2, "two seconds of service");
    long beforeStop = lastSecond(run);
    postgis("stop");
    Thread.sleep(2000);
    postgis("start");
    awaitSeconds(run, okSeconds -> okSeconds.stream().filter(second -> second > beforeStop + 2).count() >= 2,
        "two seconds of service after the restart");
    runner.stop(StopReason.TIME);
    RunResult result = running.get(120, TimeUnit.SECONDS);

    assertThat(result.stopReason()).isEqualTo(StopReason.TIME);
    assertThat(result.errors()).isPositive();
    long succeeded = result.operations() - result.errors();
    assertThat(result.throughput()).isCloseTo(succeeded * 1000.0 / result.runtimeMs(),
        org.assertj.core.data.Offset.offset(0.01));

    // Per second: service, then an outage (failures, nothing succeeds), then service again.
    Map<Long, long[]> seconds = okAndErrorsPerSecond(result.folder());
    List<Long> outage = new ArrayList<>();
    seconds.forEach((second, okErrors) -> {
      if (okErrors[0] == 0 && okErrors[1] > 0) {
        outage.add(second);
      }
    });
    assertThat(outage).as("seconds with failures only").isNotEmpty();
    long firstOutage = outage.get(0);
    long lastOutage = outage.get(outage.size() - 1);
    assertThat(seconds.entrySet().stream().filter(e -> e.getKey() < firstOutage).mapToLong(e -> e.getValue()[0]).sum())
        .as("successes before the outage").isPositive();
    assertThat(seconds.entrySet().stream().filter(e -> e.getKey() > lastOutage).mapToLong(e -> e.getValue()[0]).sum())
        .as("successes after the restart: the binding reconnected").isPositive();
    JsonNode summary = JSON.readTree(result.folder().resolve("summary.json").toFile());
    assertThat(summary.get("succeeded").asLong()).isEqualTo(succeeded);
  }

  /** Polls the time series (up to 90 s) until the seconds with successes satisfy {@code done}. */
  private static void awaitSeconds(Path folder, java.util.function.Predicate<List<Long>> done, String what)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (System.nanoTime() < deadline) {
      if (Files.exists(folder.resolve("timeseries.csv"))) {
        List<Long> okSeconds = okAndErrorsPerSecond(folder).entrySet().stream()
            .filter(e -> e.getValue()[0] > 0).map(Map.Entry::getKey).toList();
        if (done.test(okSeconds)) {
          return;
        }
      }
      Thread.sleep(200);
    }
    throw new AssertionError("The run did not show " + what + " within 90 s.");
  }

  private static long lastSecond(Path folder) throws IOException {
    return okAndErrorsPerSecond(folder).keySet().stream().mapToLong(Long::longValue).max().orElse(0);
  }

  /** second → {successful operations, errors}, all operations but CLEANUP. */
  private static Map<Long, long[]> okAndErrorsPerSecond(Path folder) throws IOException {
    Map<Long, long[]> seconds = new TreeMap<>();
    List<String> lines = Files.readAllLines(folder.resolve("timeseries.csv"));
    for (String line : lines.subList(1, lines.size())) {
      String[] c = line.split(",");
      if (c[3].equals("CLEANUP")) {
        continue;
      }
      long[] okErrors = seconds.computeIfAbsent(Long.parseLong(c[0]), s -> new long[2]);
      long errors = Long.parseLong(c[5]);
      okErrors[0] += Math.max(0, Long.parseLong(c[4]) - errors);
      okErrors[1] += errors;
    }
    return seconds;
  }
}
