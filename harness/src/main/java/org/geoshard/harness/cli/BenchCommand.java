package org.geoshard.harness.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.binding.NoopDB;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.output.Formats;
import org.geoshard.harness.output.RunFolder;
import org.geoshard.harness.output.RunResult;
import org.geoshard.harness.ramp.RampSettings;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.Runner;
import org.geoshard.harness.run.StartFailedException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import site.ycsb.BasicDB;
import site.ycsb.generator.ScrambledZipfianGenerator;
import site.ycsb.workloads.CoreWorkload;

/**
 * {@code bin/ycsb bench}: how many operations per second the harness itself sustains, with the
 * {@code noop} binding and YCSB's CoreWorkload read-only (workloadc), measured and unmeasured.
 * The client must never be the bottleneck of a cluster benchmark.
 */
@Command(header = "Measures the harness's own overhead (noop binding, read-only mix).",
    name = "bench", mixinStandardHelpOptions = true, sortOptions = false, separator = " ",
    description = {"Measures the harness's own overhead: noop binding, CoreWorkload read-only (workloadc),",
        "once with per-operation measurement (measurementtype=hdrhistogram) and once without (none);",
        "then YCSB's zipfian key chooser alone, shared by -threads threads as CoreWorkload shares it and one per thread;",
        "then how long the per-second latency check takes with -check-threads busy client threads.", ""})
public final class BenchCommand implements Callable<Integer> {
  @Option(names = "-threads", paramLabel = "N", description = "Client threads (default ${DEFAULT-VALUE}).")
  int threads = 4;

  @Option(names = "-seconds", paramLabel = "S", description = "Seconds per measured run (default ${DEFAULT-VALUE}).")
  int seconds = 10;

  @Option(names = "-warmup", paramLabel = "S", description = "Seconds of unrecorded warm-up first (default ${DEFAULT-VALUE}).")
  int warmup = 3;

  @Option(names = "-check-threads", paramLabel = "N",
      description = "Threads of the latency-check measurement (default ${DEFAULT-VALUE}).")
  int checkThreads = 1000;

  private final PrintStream out;
  private double checkThroughput;

  public BenchCommand() {
    this(System.out);
  }

  BenchCommand(PrintStream out) {
    this.out = out;
  }

  @Override
  public Integer call() throws IOException, ConfigException, StartFailedException {
    if (threads < 1 || seconds < 1 || warmup < 0) {
      throw new ConfigException("bench: -threads and -seconds must be at least 1 and -warmup at least 0.");
    }
    try (ScratchFolder scratch = ScratchFolder.create("geoshard-bench")) {
      if (warmup > 0) {
        runOnce(scratch.resolve("warmup"), false, warmup);
      }
      RunResult measured = runOnce(scratch.resolve("measured"), true, seconds);
      RunResult unmeasured = runOnce(scratch.resolve("unmeasured"), false, seconds);
      double[] keyChooser = keyChooserSharing();
      JsonNode sampler = latencyCheckAtScale(scratch.resolve("ramp"));
      out.printf("harness overhead: noop binding, CoreWorkload read-only (workloadc), %d threads, %d s per run,"
          + " %d cores, Java %s%n", threads, seconds, Runtime.getRuntime().availableProcessors(),
          System.getProperty("java.version"));
      out.printf("%-26s %16s %16s%n", "measurementtype", "operations", "ops/s");
      print("hdrhistogram", measured);
      print("none", unmeasured);
      out.printf("measurement costs %s%% of the unmeasured rate; READ p50 %d us, p99 %d us (measured run)%n",
          Formats.decimal(100.0 * (1 - measured.throughput() / unmeasured.throughput()), 1),
          measured.perOperation().get("READ").p50Us(), measured.perOperation().get("READ").p99Us());
      out.printf("YCSB's zipfian key chooser alone, %d threads: %s M keys/s from the one generator CoreWorkload shares"
          + " (it writes its last value on every call), %s M keys/s with one generator per thread%n", threads,
          Formats.decimal(keyChooser[0] / 1e6, 2), Formats.decimal(keyChooser[1] / 1e6, 2));
      out.printf("latency check with %d threads (BasicDB sleeping 0-10 ms, one %d s ramp step, %s ops/s): sampling"
          + " one second and judging the rule took %s us on average, %s us at most, over %s intervals%n", checkThreads,
          seconds, Formats.grouped(Math.round(checkThroughput)), sampler.path("meanMicros").asText(),
          sampler.path("maxMicros").asText(), sampler.path("intervals").asText());
      return measured.hasFailures() || unmeasured.hasFailures() ? ExitCodes.FAILED : ExitCodes.OK;
    }
  }

  /**
   * A closed-loop ramp step of {@code checkThreads} threads against YCSB's BasicDB sleeping up to
   * 10 ms per operation (threads that wait, as they wait for a database): how long the sampler takes
   * each second (taking the interval histograms, writing the files, judging the latency rule).
   */
  private JsonNode latencyCheckAtScale(Path folder) throws ConfigException, StartFailedException, IOException {
    Properties properties = workloadc();
    properties.setProperty(RampSettings.MODE, "threads");
    properties.setProperty(RampSettings.START, Integer.toString(checkThreads));
    properties.setProperty(RampSettings.MAX_THREADS, Integer.toString(checkThreads));
    properties.setProperty(RampSettings.INTERVAL, Integer.toString(seconds));
    properties.setProperty(RampSettings.STATS_WARMUP, "0");
    properties.setProperty(RunSettings.STATUS_INTERVAL, "0");
    properties.setProperty(RunSettings.RESULTS_DIR, folder.toString());
    properties.setProperty("basicdb.simulatedelay", "10");
    properties.setProperty("basicdb.verbose", "false");
    RunSettings settings = RunSettings.fromProperties(Phase.RUN, properties, "bench");
    RunResult result = new Runner(settings, properties, new Binding("basic", BasicDB.class), folder).execute();
    checkThroughput = result.throughput();
    return RunFolder.json().readTree(folder.resolve(RunFolder.RUN_JSON).toFile()).path("sampler");
  }

  /**
   * YCSB's {@code ScrambledZipfianGenerator} as {@code CoreWorkload} uses it (one instance shared by every
   * client thread), against one instance per thread: keys per second over {@code threads} threads. Its
   * {@code nextValue()} stores the value it returns in the shared object (twice: its own and its inner
   * generator's last value), so on many cores every call moves that cache line between cores: the point
   * where workloads A-F stop scaling, whatever the binding.
   */
  private double[] keyChooserSharing() {
    ScrambledZipfianGenerator shared = new ScrambledZipfianGenerator(0, 999_999);
    double sharedRate = keysPerSecond(() -> shared);
    double ownRate = keysPerSecond(() -> new ScrambledZipfianGenerator(0, 999_999));
    return new double[] {sharedRate, ownRate};
  }

  private double keysPerSecond(Supplier<ScrambledZipfianGenerator> generatorOfThread) {
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    LongAdder keys = new LongAdder();
    LongAdder sink = new LongAdder();
    List<Thread> running = new ArrayList<>();
    long started = System.nanoTime();
    for (int i = 0; i < threads; i++) {
      Thread thread = new Thread(() -> {
        ScrambledZipfianGenerator generator = generatorOfThread.get();
        long count = 0;
        long folded = 0;
        while (System.nanoTime() < deadline) {
          for (int k = 0; k < 1_000; k++) {
            folded += generator.nextValue();
          }
          count += 1_000;
        }
        keys.add(count);
        sink.add(folded);  // keeps the JIT from dropping the calls
      }, "bench-keys-" + i);
      running.add(thread);
      thread.start();
    }
    for (Thread thread : running) {
      try {
        thread.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    return keys.sum() / ((System.nanoTime() - started) / 1e9);
  }

  private void print(String type, RunResult result) {
    out.printf("%-26s %16s %16s%n", type, Formats.grouped(result.operations()), Formats.grouped(Math.round(result.throughput())));
  }

  private RunResult runOnce(Path folder, boolean measured, int runSeconds)
      throws ConfigException, StartFailedException, IOException {
    Properties properties = workloadc();
    properties.setProperty(RunSettings.THREAD_COUNT, Integer.toString(threads));
    properties.setProperty(RunSettings.MAX_EXECUTION_TIME, Integer.toString(runSeconds));
    properties.setProperty(RunSettings.MEASUREMENT_TYPE, measured ? "hdrhistogram" : "none");
    properties.setProperty(RunSettings.STATUS_INTERVAL, "0");
    properties.setProperty(RunSettings.RESULTS_DIR, folder.toString());
    RunSettings settings = RunSettings.fromProperties(Phase.RUN, properties, "bench");
    return new Runner(settings, properties, new Binding("noop", NoopDB.class), folder).execute();
  }

  /** YCSB's workloadc: read only, zipfian requests over 1,000,000 records of 10 fields. */
  static Properties workloadc() {
    return workloadc(1_000_000);
  }

  /**
   * YCSB's workload C over {@code records} records: read only, zipfian, all fields (10 of 100 bytes); the
   * benches of the bindings ({@code bench postgis}, {@code bench mongodb}) read the same shape.
   */
  public static Properties workloadc(long records) {
    Properties p = new Properties();
    p.setProperty(RunSettings.WORKLOAD, CoreWorkload.class.getName());
    p.setProperty(RunSettings.RECORD_COUNT, Long.toString(records));
    p.setProperty(RunSettings.OPERATION_COUNT, "0");
    p.setProperty("readallfields", "true");
    p.setProperty("readproportion", "1");
    p.setProperty("updateproportion", "0");
    p.setProperty("scanproportion", "0");
    p.setProperty("insertproportion", "0");
    p.setProperty("requestdistribution", "zipfian");
    return p;
  }

}
