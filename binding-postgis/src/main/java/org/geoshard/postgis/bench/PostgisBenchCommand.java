package org.geoshard.postgis.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import org.geoshard.geo.GeoSettings;
import org.geoshard.geo.cli.DatasetInput;
import org.geoshard.geo.dataset.RestaurantDataset;
import org.geoshard.geo.query.QueryGenerator;
import org.geoshard.harness.api.Seeds;
import org.geoshard.harness.cli.ExitCodes;
import org.geoshard.harness.cli.GeoshardCommand;
import org.geoshard.harness.cli.LoadAverage;
import org.geoshard.harness.cli.ScratchFolder;
import org.geoshard.harness.output.Formats;
import org.geoshard.postgis.Connections;
import org.geoshard.postgis.PostgisSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/ycsb bench postgis}: how much the client costs beside the database it measures. Loads
 * the near-query dataset once, then runs pgbench (the same statement, {@code -M prepared}) and
 * {@code bin/ycsb run postgis-geo} (the geo workload's basic near queries) alternately, each as its own
 * process with the same connections, warm-up and duration, and prints both throughputs after the
 * warm-up, both clients' CPU per query (the whole process, start-up included) and their ratios.
 */
@Command(name = "postgis", mixinStandardHelpOptions = true, sortOptions = false, separator = " ",
    header = "The PostGIS client side by side with pgbench: throughput and client CPU per query.",
    description = {"Loads the dataset (unless the table already holds it), then runs pgbench and bin/ycsb run",
        "postgis-geo alternately (-rounds times each) on the same near query, and prints both throughputs",
        "after the warm-up, both clients' CPU per query (whole process, start-up included) and the ratios.",
        "Defaults: binding-postgis/bench/near.properties, table bench_restaurants; -P and -p as for run.", ""})
public final class PostgisBenchCommand implements GeoshardCommand {
  private static final Logger LOG = LoggerFactory.getLogger(PostgisBenchCommand.class);
  static final String DEFAULT_TABLE = "bench_restaurants";
  static final double THROUGHPUT_GOAL = 0.9;
  static final double CPU_GOAL = 2.0;

  @Option(names = "-P", paramLabel = "FILE", description = "Properties file(s); default binding-postgis/bench/near.properties.")
  List<Path> files = new ArrayList<>();

  @Option(names = "-p", paramLabel = "KEY=VALUE", description = "Sets one property (postgis.url, geo.scale, ...).")
  List<String> overrides = new ArrayList<>();

  @Option(names = "-threads", paramLabel = "N", description = "Connections of each client (default ${DEFAULT-VALUE}).")
  int threads = 4;

  @Option(names = "-seconds", paramLabel = "S", description = "Measured seconds per run (default ${DEFAULT-VALUE}).")
  int seconds = 40;

  @Option(names = "-warmup", paramLabel = "S", description = "Warm-up seconds before them (default ${DEFAULT-VALUE}).")
  int warmup = 10;

  @Option(names = "-rounds", paramLabel = "N", description = "Runs of each client, alternating (default ${DEFAULT-VALUE}).")
  int rounds = 2;

  @Option(names = "--pgbench", paramLabel = "PATH", description = "The pgbench program (default ${DEFAULT-VALUE}).")
  String pgbench = "pgbench";

  private final PrintStream out;

  public PostgisBenchCommand() {
    this(System.out);
  }

  PostgisBenchCommand(PrintStream out) {
    this.out = out;
  }

  @Override
  public String parentCommand() {
    return "bench";
  }

  @Override
  public Integer call() throws Exception {
    Path home = home();
    if (threads < 1 || seconds < 1 || warmup < 0 || rounds < 1) {
      LOG.error("bench postgis: -threads, -seconds and -rounds must be at least 1, -warmup at least 0.");
      return ExitCodes.USAGE;
    }
    List<Path> sources = files.isEmpty() && home != null ? List.of(home.resolve("binding-postgis/bench/near.properties")) : files;
    DatasetInput input = DatasetInput.readOrLog(sources, overrides, p -> {
      p.putIfAbsent(PostgisSettings.TABLE, DEFAULT_TABLE);
      p.setProperty("threadcount", Integer.toString(threads));
      return null;
    }, LOG);
    PostgisSettings postgis = input == null ? null : input.extraOrLog(PostgisSettings::fromProperties, LOG);
    if (postgis == null) {
      return ExitCodes.USAGE;
    }
    Properties properties = input.properties();
    RestaurantDataset dataset = input.dataset();
    GeoSettings geo = input.settings();
    if (home == null) {
      LOG.error("bench postgis starts bin/ycsb and needs to know where geoshard is: run it through bin/ycsb.");
      return ExitCodes.USAGE;
    }
    // Closed in finally, not by try-with-resources: the catch below reads a child's log inside it.
    ScratchFolder scratch = ScratchFolder.create("geoshard-bench-postgis");
    try {
      Path props = scratch.resolve("bench.properties");
      writePrivately(props, properties);
      String table = postgis.table();
      try (Connection connection = Connections.open(postgis)) {
        long rows = rowsOf(connection, table);
        if (rows <= 0) {
          out.printf("loading %s restaurants (geo.scale=%s) into %s...%n", Formats.grouped(dataset.size()), geo.scale(), table);
          int code = child(home, scratch.resolve("load.log"), List.of("load", "postgis-geo", "-P", props.toString(),
              "-p", "results.dir=" + scratch.resolve("load"), "-p", "status.interval=0"));
          if (code != 0) {
            return fail("the load failed (exit " + code + ")", scratch.resolve("load.log"));
          }
        } else if (rows != dataset.size()) {
          LOG.error("Table {} holds {} rows, not the {} of this dataset (geo.scale={}): drop it (DROP TABLE {}) or name"
              + " another with -p {}=...", table, rows, dataset.size(), geo.scale(), table, PostgisSettings.TABLE);
          return ExitCodes.USAGE;
        } else {
          out.printf("using the %s restaurants already in %s%n", Formats.grouped(rows), table);
        }
        NearPgbench.writeCentres(connection, table, new QueryGenerator(dataset, geo),
            Seeds.derive(Seeds.runSeed(properties), "bench-centres", 0));
      }
      Path script = scratch.resolve("near.pgbench");
      Files.writeString(script, NearPgbench.script(table, geo.pageSize(), geo.minRadiusMeters(), geo.maxRadiusMeters()));
      List<ClientRun> runs = new ArrayList<>();
      for (int round = 1; round <= rounds; round++) {
        runs.add(pgbench(postgis, script, scratch.resolve("pgbench-" + round + ".log")));
        print(round, runs.get(runs.size() - 1));
        runs.add(ycsb(home, props, scratch.resolve("ycsb-" + round)));
        print(round, runs.get(runs.size() - 1));
      }
      summarise(runs);
      return ExitCodes.OK;
    } catch (ChildFailed e) {
      return fail(e.getMessage(), e.log);
    } finally {
      scratch.close();
    }
  }

  private static Path home() {
    String home = System.getProperty("geoshard.home");
    return home == null ? null : Path.of(home);
  }

  private ClientRun pgbench(PostgisSettings postgis, Path script, Path log) throws IOException, InterruptedException,
      ChildFailed {
    URI uri = URI.create(postgis.url().substring("jdbc:".length()));
    List<String> command = new ArrayList<>(List.of(pgbench, "-n", "-M", "prepared", "-c", Integer.toString(threads),
        "-j", Integer.toString(threads), "-T", Integer.toString(warmup + seconds), "-P", "1",
        "-D", "centres=" + NearPgbench.CENTRES, "-f", script.toString(),
        "-h", uri.getHost(), "-p", Integer.toString(uri.getPort() < 0 ? 5432 : uri.getPort())));
    if (postgis.user() != null) {
      command.addAll(List.of("-U", postgis.user()));
    }
    command.add(uri.getPath().substring(1));
    Duration before = ChildCpu.used();
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    if (postgis.password() != null) {
      builder.environment().put("PGPASSWORD", postgis.password());
    }
    int code = builder.start().waitFor();
    Duration cpu = ChildCpu.used().minus(before);
    if (code != 0) {
      throw new ChildFailed("pgbench failed (exit " + code + ")", log);
    }
    PgbenchOutput.Outcome outcome = PgbenchOutput.parse(Files.readString(log), warmup);
    if (outcome.failed() > 0) {
      throw new ChildFailed("pgbench had " + outcome.failed() + " failed transactions", log);
    }
    return new ClientRun("pgbench", outcome.transactions(), outcome.throughput(), cpu, LoadAverage.oneMinute());
  }

  private ClientRun ycsb(Path home, Path props, Path folder) throws IOException, InterruptedException, ChildFailed {
    Path log = folder.resolveSibling(folder.getFileName() + ".log");
    Duration before = ChildCpu.used();
    int code = child(home, log, List.of("run", "postgis-geo", "-P", props.toString(),
        "-p", "maxexecutiontime=" + (warmup + seconds), "-p", "stats.warmup=" + warmup, "-p", "status.interval=0",
        // pgbench samples no server and explains no query: neither does the client compared with it.
        "-p", "observe.interval=0", "-p", "observe.explain.samples=0", "-p", "results.dir=" + folder));
    Duration cpu = ChildCpu.used().minus(before);
    if (code != 0) {
      throw new ChildFailed("bin/ycsb run failed (exit " + code + ")", log);
    }
    YcsbOutput.Outcome outcome = YcsbOutput.read(folder, "GEO_NEAR", warmup);
    if (outcome.errors() > 0) {
      throw new ChildFailed("bin/ycsb run had " + outcome.errors() + " failed operations", log);
    }
    return new ClientRun("ycsb", outcome.queries(), outcome.throughput(), cpu, LoadAverage.oneMinute());
  }

  /** bin/ycsb as its own process: the client measured is the one users run, launcher and JVM start-up included. */
  private static int child(Path home, Path log, List<String> arguments) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(home.resolve("bin/ycsb").toString(), "--no-build"));
    command.addAll(arguments);
    return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start().waitFor();
  }

  private void print(int round, ClientRun run) {
    out.printf(Locale.ROOT, "round %d  %-8s %9s queries/s  %7.1f us CPU per query  (%s queries, %.1f s CPU)  load %.1f%n",
        round, run.client(), Formats.grouped(Math.round(run.throughput())), run.cpuMicrosPerQuery(),
        Formats.grouped(run.queries()), run.cpu().toMillis() / 1000.0, run.loadAverage());
  }

  private void summarise(List<ClientRun> runs) {
    double pgThroughput = mean(runs, "pgbench", ClientRun::throughput);
    double ycsbThroughput = mean(runs, "ycsb", ClientRun::throughput);
    double pgCpu = mean(runs, "pgbench", ClientRun::cpuMicrosPerQuery);
    double ycsbCpu = mean(runs, "ycsb", ClientRun::cpuMicrosPerQuery);
    double throughputRatio = ycsbThroughput / pgThroughput;
    double cpuRatio = ycsbCpu / pgCpu;
    out.printf(Locale.ROOT, "%nmean of %d runs each, %d connections, %d s after %d s warm-up, %d cores%n", rounds, threads,
        seconds, warmup, Runtime.getRuntime().availableProcessors());
    out.printf(Locale.ROOT, "%-8s %9s queries/s  %7.1f us CPU per query%n", "pgbench", Formats.grouped(Math.round(pgThroughput)), pgCpu);
    out.printf(Locale.ROOT, "%-8s %9s queries/s  %7.1f us CPU per query%n", "ycsb", Formats.grouped(Math.round(ycsbThroughput)), ycsbCpu);
    out.printf(Locale.ROOT, "throughput ycsb/pgbench %.2f (goal >= %.1f: %s); CPU per query ycsb/pgbench %.2f (goal <= %.1f: %s)%n",
        throughputRatio, THROUGHPUT_GOAL, throughputRatio >= THROUGHPUT_GOAL ? "met" : "NOT met", cpuRatio, CPU_GOAL,
        cpuRatio <= CPU_GOAL ? "met" : "NOT met");
  }

  private static double mean(List<ClientRun> runs, String client, java.util.function.ToDoubleFunction<ClientRun> figure) {
    return runs.stream().filter(r -> r.client().equals(client)).mapToDouble(figure).average().orElse(Double.NaN);
  }

  private int fail(String what, Path log) throws IOException {
    if (Files.exists(log)) {
      List<String> lines = Files.readAllLines(log);
      lines.subList(Math.max(0, lines.size() - 20), lines.size()).forEach(line -> LOG.error("  {}", line));
    }
    LOG.error("bench postgis: {} (its last lines above).", what);
    return ExitCodes.FAILED;
  }

  /** The rows of the table, or -1 if it does not exist. */
  private static long rowsOf(Connection connection, String table) throws SQLException {
    try (Statement s = connection.createStatement();
         ResultSet exists = s.executeQuery("SELECT to_regclass('" + table + "') IS NOT NULL")) {
      exists.next();
      if (!exists.getBoolean(1)) {
        return -1;
      }
    }
    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM " + table)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** The children read the resolved properties from a file only this user can read (it may hold a password). */
  private static void writePrivately(Path file, Properties properties) throws IOException {
    Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    try (Writer writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      properties.store(writer, "bin/ycsb bench postgis");
    }
  }

  /** A client process that failed; its output is in {@code log}. */
  private static final class ChildFailed extends Exception {
    private final transient Path log;

    ChildFailed(String message, Path log) {
      super(message);
      this.log = log;
    }
  }
}
