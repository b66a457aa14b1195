package org.geoshard.mongodb.bench;

import com.mongodb.MongoException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.geoshard.harness.api.WaitingNotice;
import org.geoshard.harness.binding.BindingRegistry;
import org.geoshard.harness.cli.ExitCodes;
import org.geoshard.harness.cli.GeoshardCommand;
import org.geoshard.harness.cli.ScratchFolder;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.api.Secrets;
import org.geoshard.harness.config.UnknownProperties;
import org.geoshard.harness.output.Formats;
import org.geoshard.harness.output.RunResult;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.StartFailedException;
import org.geoshard.mongodb.Failures;
import org.geoshard.mongodb.MongoSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/ycsb bench mongodb}: what the MongoDB bindings cost beside the bare driver. Against one
 * server ({@code mongodb.url}, or a FerretDB stand-in it starts), YCSB's workload C (reads by
 * {@code _id}, all fields) runs through the harness with each binding and as a bare loop of the
 * driver the binding is built on, alternately, with the same threads, keys and client settings; it
 * prints both throughputs, this JVM's CPU per read for each and their ratios.
 */
@Command(name = "mongodb", mixinStandardHelpOptions = true, sortOptions = false, separator = " ",
    header = "The MongoDB bindings beside the bare driver: throughput and client CPU per operation.",
    description = {"Loads -records YCSB records (unless the table holds them), then, per binding, runs workload C",
        "(read by _id, all fields) through the harness and as a bare driver loop (sync driver beside mongodb-geo,",
        "reactive streams driver beside mongodb-async), alternately -rounds times each after a warm-up of each, and",
        "prints both throughputs, both client CPU per read (this JVM's) and the ratios. Without -p mongodb.url it",
        "starts FerretDB (NOT MongoDB) through bin/ferretdb as the server, and stops it at the end.", ""})
public final class MongoBenchCommand implements GeoshardCommand {
  private static final Logger LOG = LoggerFactory.getLogger(MongoBenchCommand.class);
  static final List<String> BINDINGS = List.of("mongodb-geo", "mongodb-async");
  static final long RECORDS = 10_000;
  /**
   * FerretDB v1.24.2 on SQLite reads and decodes every document of a collection on each find (its SQLite
   * backend sends no WHERE: internal/backends/sqlite/query.go), so its reads per second fall as one over the
   * records: about 1,200 at 100 and 100 at 2,000 of workload C's 1 KB records on this 2-core machine. At
   * 10,000 the client would idle between reads and its CPU per read would be mostly its fixed costs.
   */
  static final long STAND_IN_RECORDS = 100;
  /** The stand-in's database. */
  static final String DATABASE = "geoshard_bench";
  /** Properties the bench sets itself, and the option that sets each instead. */
  private static final List<String[]> OWNED = List.of(new String[] {RunSettings.THREAD_COUNT, "-threads"},
      new String[] {RunSettings.RECORD_COUNT, "-records"}, new String[] {RunSettings.MAX_EXECUTION_TIME, "-seconds"},
      new String[] {RunSettings.OPERATION_COUNT, "-seconds"}, new String[] {RunSettings.WORKLOAD, "(workload C only)"},
      new String[] {RunSettings.MEASUREMENT_TYPE, "(hdrhistogram, as users run)"},
      new String[] {RunSettings.RESULTS_DIR, "(a temporary folder)"});

  @Option(names = "-p", paramLabel = "KEY=VALUE", description = "Sets one property (mongodb.url, mongodb.timeout.ms, ...).")
  List<String> overrides = new ArrayList<>();

  @Option(names = "-threads", paramLabel = "N", description = "Client threads of both clients (default ${DEFAULT-VALUE}).")
  int threads = 4;

  @Option(names = "-seconds", paramLabel = "S", description = "Seconds per measured run (default ${DEFAULT-VALUE}).")
  int seconds = 20;

  @Option(names = "-warmup", paramLabel = "S", description = "Unrecorded warm-up seconds of each client first (default ${DEFAULT-VALUE}).")
  int warmup = 15;

  @Option(names = "-rounds", paramLabel = "N", description = "Measured runs of each client, alternating (default ${DEFAULT-VALUE}).")
  int rounds = 2;

  @Option(names = "-records", paramLabel = "N", description = {"Records loaded and read (default " + RECORDS
      + " on a server of your own, " + STAND_IN_RECORDS + " on the stand-in).",
      "FerretDB pushes no filter down to SQLite: each of its finds reads every document of the collection."})
  Long records;

  @Option(names = "-bindings", paramLabel = "NAME[,NAME]", split = ",",
      description = "Bindings compared (default mongodb-geo,mongodb-async).")
  List<String> bindings = new ArrayList<>(BINDINGS);

  private final PrintStream out;
  private final Path launcher;

  public MongoBenchCommand() {
    this(System.out, launcherOfHome());
  }

  /** @param launcher {@code bin/ferretdb}, for the stand-in; null when unknown */
  MongoBenchCommand(PrintStream out, Path launcher) {
    this.out = out;
    this.launcher = launcher;
  }

  @Override
  public String parentCommand() {
    return "bench";
  }

  private static Path launcherOfHome() {
    String home = System.getProperty("geoshard.home");
    return home == null ? null : Path.of(home, "bin", "ferretdb");
  }

  /** Every problem with the options, one sentence each naming the option (empty when fine). */
  List<String> problems(Properties given) {
    List<String> problems = new ArrayList<>();
    if (threads < 1) {
      problems.add("-threads must be at least 1, not " + threads + ".");
    }
    if (seconds < 1) {
      problems.add("-seconds must be at least 1, not " + seconds + ".");
    }
    if (warmup < 0) {
      problems.add("-warmup must be at least 0, not " + warmup + ".");
    }
    if (rounds < 1) {
      problems.add("-rounds must be at least 1, not " + rounds + ".");
    }
    if (records != null && records < 1) {
      problems.add("-records must be at least 1, not " + records + ".");
    }
    if (bindings.isEmpty()) {
      problems.add("-bindings names no binding: give mongodb-geo, mongodb-async or both.");
    }
    for (String b : bindings) {
      if (!BINDINGS.contains(b)) {
        problems.add("-bindings: '" + b + "' is not one of " + String.join(", ", BINDINGS) + ".");
      }
    }
    for (String pair : overrides) {
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        problems.add("-p '" + Secrets.maskText(pair) + "' is not KEY=VALUE.");
        continue;
      }
      String name = pair.substring(0, eq).trim();
      for (String[] owned : OWNED) {
        if (owned[0].equals(name)) {
          problems.add("-p " + name + ": bench mongodb sets it itself " + (owned[1].startsWith("-") ? "(use "
              + owned[1] + ")" : owned[1]) + ".");
        }
      }
      given.setProperty(name, pair.substring(eq + 1).trim());
    }
    return problems;
  }

  @Override
  public Integer call() throws Exception {
    Properties given = new Properties();
    List<String> problems = problems(given);
    if (problems.isEmpty()) {
      problems.addAll(UnknownProperties.fromClassPath().problems(given));
    }
    if (problems.isEmpty() && given.getProperty(MongoSettings.URL) == null && launcher == null) {
      problems.add("Without -p mongodb.url, bench mongodb starts FerretDB through bin/ferretdb and needs to know"
          + " where geoshard is: run it through bin/ycsb.");
    }
    if (!problems.isEmpty()) {
      problems.forEach(p -> LOG.error("bench mongodb: {}", p));
      return ExitCodes.USAGE;
    }
    ScratchFolder scratch = ScratchFolder.create("geoshard-bench-mongodb");
    Session session = new Session(given, scratch.path());
    CountDownLatch finished = new CountDownLatch(1);
    Thread hook = new Thread(() -> {
      LOG.warn("bench mongodb: interrupted; stopping the run in progress{}.", session.standIn == null ? ""
          : " and the FerretDB stand-in");
      session.stop();
      try {
        finished.await(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "bench-mongodb-interrupt");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      return session.run();
    } catch (ConfigException e) {
      e.problems().forEach(p -> LOG.error("bench mongodb: {}", p));
      return ExitCodes.USAGE;
    } catch (StartFailedException | IOException | MongoException e) {
      LOG.error("bench mongodb: {}", Secrets.maskText(e.getMessage()));
      return ExitCodes.FAILED;
    } finally {
      session.close();  // the stand-in first: its data is in the scratch folder
      scratch.close();
      finished.countDown();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // Ctrl-C: the hook runs and waits for this.
      }
    }
  }

  /** One invocation: the server, the load, the comparisons; what Ctrl-C stops. */
  private final class Session implements AutoCloseable {
    private final Properties given;
    private final Path scratch;
    private volatile StandIn standIn;
    private volatile BareLoop bare;
    private volatile boolean stopped;
    private HarnessRuns harness;

    Session(Properties given, Path scratch) {
      this.given = given;
      this.scratch = scratch;
    }

    int run() throws Exception {
      if (given.getProperty(MongoSettings.URL) == null) {
        records = records == null ? STAND_IN_RECORDS : records;
        standIn = StandIn.start(launcher, scratch.resolve("ferretdb"));
        given.setProperty(MongoSettings.URL, standIn.url(DATABASE));
      }
      records = records == null ? RECORDS : records;
      if (stopped) {
        return ExitCodes.INTERRUPTED;
      }
      harness = new HarnessRuns(given, scratch.resolve("runs"), BindingRegistry.fromClassPath());
      Properties withThreads = new Properties();
      withThreads.putAll(given);
      withThreads.setProperty(RunSettings.CLIENT_THREADS, Integer.toString(threads));
      MongoSettings settings = MongoSettings.fromProperties(withThreads);
      String table = given.getProperty("table", "usertable");
      out.printf(Locale.ROOT, "bench mongodb: YCSB workload C (read by _id, all 10 fields of 100 bytes, zipfian) over %s"
          + " records of %s, %d threads, %d s per run after %d s of warm-up, %d runs of each client, alternating%n",
          Formats.grouped(records), table, threads, seconds, warmup, rounds);
      out.printf("machine: %s%n", ProcessCpu.machine());
      out.printf("server: %s%s%n", settings.connection().maskedUrl(), standIn == null ? ""
          : " (FerretDB v1.24.2, NOT MongoDB, started for this bench: only the client's side is compared; it reads"
          + " every document of the collection on each find, hence few records)");
      if (!loaded(settings, table)) {
        return ExitCodes.FAILED;
      }
      List<Comparison> comparisons = new ArrayList<>();
      for (String binding : bindings) {
        Comparison c = compare(binding, settings, table);
        if (c == null) {
          return stopped ? ExitCodes.INTERRUPTED : ExitCodes.FAILED;
        }
        comparisons.add(c);
      }
      out.printf(Locale.ROOT, "%nmean of %d runs each (each run's figure in parentheses):%n", rounds);
      for (Comparison c : comparisons) {
        c.meanLines().forEach(out::println);
        out.println("  " + c.goalLine());
      }
      comparisons.forEach(c -> out.println(c.ratioLine()));
      return ExitCodes.OK;
    }

    /** True when the table holds the records (loading them when it is empty). */
    private boolean loaded(MongoSettings settings, String table) throws ConfigException, StartFailedException,
        IOException {
      long count;
      try (MongoClient client = MongoClients.create(BareClients.settings(settings));
           WaitingNotice notice = WaitingNotice.start(String.join(", ", settings.connection().connectionString().getHosts()),
               Duration.ofMillis(settings.connection().serverSelectionTimeout(TimeUnit.MILLISECONDS)),
               MongoSettings.SERVER_SELECTION_TIMEOUT, LOG::info)) {
        count = client.getDatabase(settings.connection().database()).getCollection(table).countDocuments();
      } catch (MongoException e) {
        // The bindings' own sentence for a server that cannot be reached or used (masked, with what to check).
        LOG.error("bench mongodb: {}", Failures.describe(e, settings, settings.connection().url(), null));
        return false;
      }
      if (count == records) {
        out.printf("using the %s records already in %s.%s%n", Formats.grouped(count), settings.connection().database(), table);
        return true;
      }
      if (count != 0) {
        LOG.error("bench mongodb: {}.{} holds {} documents, not the {} of -records: drop it, give -records {}, or name"
            + " another collection with -p table=...", settings.connection().database(), table, count, records, count);
        return false;
      }
      out.printf("loading %s records into %s.%s through mongodb-geo...%n", Formats.grouped(records),
          settings.connection().database(), table);
      RunResult load = harness.load(records, threads);
      if (load.hasFailures()) {
        LOG.error("bench mongodb: the load failed ({} of {} inserts failed, {} threads failed); see the log above.",
            load.errors(), load.operations(), load.threadFailures());
        return false;
      }
      return true;
    }

    /** Warm-up of each, then binding and bare driver alternately; null when a run failed or the bench was stopped. */
    private Comparison compare(String binding, MongoSettings settings, String table) throws Exception {
      boolean reactive = binding.equals("mongodb-async");
      String bareName = reactive ? "bare reactive" : "bare sync";
      out.printf("%n%s beside the %s driver:%n", binding, bareName.substring(5));
      List<ClientRun> bindingRuns = new ArrayList<>();
      List<ClientRun> bareRuns = new ArrayList<>();
      if (warmup > 0) {
        harness.run(binding, records, threads, warmup);
        bareRun(bareName, reactive, settings, table, warmup);
        if (stopped) {
          return null;
        }
      }
      for (int round = 1; round <= rounds; round++) {
        ClientRun b = harness.run(binding, records, threads, seconds);
        if (!print(round, b)) {
          return null;
        }
        bindingRuns.add(b);
        ClientRun bare = bareRun(bareName, reactive, settings, table, seconds);
        if (!print(round, bare)) {
          return null;
        }
        bareRuns.add(bare);
      }
      return new Comparison(binding, bindingRuns, bareRuns);
    }

    /** One bare run; the client is opened and closed inside it (as each harness run opens its own). */
    private ClientRun bareRun(String name, boolean reactive, MongoSettings settings, String table, int runSeconds)
        throws InterruptedException {
      long cpuBefore = ProcessCpu.nanos();
      bare = new BareLoop(threads);
      if (stopped) {
        bare.stop();
      }
      ClientRun run;
      try (BareClients.Bare client = reactive ? BareClients.reactive(settings, table) : BareClients.sync(settings, table)) {
        run = bare.run(name, runSeconds, client::reader, () -> new YcsbKeys(records));
      }
      if (run.errors() > 0) {
        LOG.error("bench mongodb: {} failed: {}", name, bare.firstFailure());
      }
      // The CPU of opening and closing the client counts, as the harness run's start and end do.
      return new ClientRun(run.client(), run.operations(), run.errors(), run.seconds(), ProcessCpu.nanos() - cpuBefore,
          run.loadAverage());
    }

    /** Prints a run; false when it failed or was stopped (then the bench ends). */
    private boolean print(int round, ClientRun run) {
      out.printf(Locale.ROOT, "  run %d  %-14s %9s reads/s  %7.1f us CPU per read  (%s reads in %.1f s, %.2f s CPU,"
          + " load %.1f)%n", round, run.client(), Formats.grouped(Math.round(run.throughput())),
          run.cpuMicrosPerOperation(), Formats.grouped(run.operations()), run.seconds(), run.cpuNanos() / 1e9,
          run.loadAverage());
      if (stopped) {
        return false;
      }
      if (run.errors() > 0 || run.operations() == 0) {
        LOG.error("bench mongodb: {} had {} failed reads and {} that answered: the comparison needs every read to"
            + " find its record.", run.client(), run.errors(), run.operations());
        return false;
      }
      return true;
    }

    /** Ctrl-C: stops what runs and the stand-in. */
    void stop() {
      stopped = true;
      if (harness != null) {
        harness.stop();
      }
      BareLoop loop = bare;
      if (loop != null) {
        loop.stop();
      }
      close();
    }

    @Override
    public void close() {
      if (harness != null) {
        harness.close();  // before the stand-in server goes: what the runs shared closes against it
      }
      StandIn s = standIn;
      if (s != null) {
        s.close();
      }
    }
  }
}
