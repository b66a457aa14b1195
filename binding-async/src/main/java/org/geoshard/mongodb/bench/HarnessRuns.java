package org.geoshard.mongodb.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Properties;
import org.geoshard.harness.api.DataDeclaration;
import org.geoshard.harness.api.SharedObjects;
import org.geoshard.harness.binding.BindingRegistry;
import org.geoshard.harness.cli.BenchCommand;
import org.geoshard.harness.cli.LoadAverage;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.output.RunResult;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.Runner;
import org.geoshard.harness.run.StartFailedException;
import org.geoshard.harness.measure.StopReason;

/**
 * The bindings as a user runs them: YCSB's CoreWorkload through the harness {@link Runner}, every
 * operation measured into HdrHistograms and the per-second files. Nothing runs beside the threads
 * that the bare loop lacks: no status lines, no server sampler, no explain sampler.
 */
final class HarnessRuns implements AutoCloseable {
  private final Properties base;
  private final Path scratch;
  private final BindingRegistry registry;
  /** The bench's process context: what a binding says once per process is said once for all its runs. */
  private final SharedObjects process = new SharedObjects(DataDeclaration.keyValue());
  private volatile Runner current;
  private volatile boolean stopped;
  private int runs;

  /** @param base the user's properties ({@code mongodb.url} and the rest), each run adds its own */
  HarnessRuns(Properties base, Path scratch, BindingRegistry registry) {
    this.base = base;
    this.scratch = scratch;
    this.registry = registry;
  }

  /** Loads the records through {@code mongodb-geo}'s YCSB load path (batches of 100). */
  RunResult load(long records, int threads) throws ConfigException, StartFailedException, IOException {
    Properties p = properties(records, threads, "load");
    p.setProperty("batchsize", "100");
    return execute(Phase.LOAD, "mongodb-geo", p);
  }

  /** One timed run of a binding; its CPU is the whole JVM's across the run (start and end of the phase included). */
  ClientRun run(String binding, long records, int threads, int seconds) throws ConfigException, StartFailedException,
      IOException {
    Properties p = properties(records, threads, binding);
    p.setProperty(RunSettings.MAX_EXECUTION_TIME, Integer.toString(seconds));
    p.setProperty(RunSettings.MEASUREMENT_TYPE, "hdrhistogram");
    long cpuBefore = ProcessCpu.nanos();
    RunResult result = execute(Phase.RUN, binding, p);
    long cpu = ProcessCpu.nanos() - cpuBefore;
    long succeeded = result.operations() - result.errors();
    return new ClientRun(binding, succeeded, result.errors(), result.runtimeMs() / 1000.0, cpu, LoadAverage.oneMinute());
  }

  private Properties properties(long records, int threads, String label) {
    Properties p = new Properties();
    p.putAll(base);
    p.putAll(BenchCommand.workloadc(records));  // as the harness's own bench reads it
    p.setProperty(RunSettings.THREAD_COUNT, Integer.toString(threads));
    p.setProperty(RunSettings.STATUS_INTERVAL, "0");
    // The bare loop samples no server and explains no query: neither does the client compared with it.
    p.setProperty("observe.interval", "0");
    p.setProperty("observe.explain.samples", "0");
    p.setProperty(RunSettings.RESULTS_DIR, scratch.resolve(String.format("%02d-%s", ++runs, label)).toString());
    return p;
  }

  private RunResult execute(Phase phase, String binding, Properties p) throws ConfigException, StartFailedException,
      IOException {
    RunSettings settings = RunSettings.fromProperties(phase, p, "bench-mongodb");
    Runner runner = new Runner(settings, p, registry.resolve(binding), scratch).within(process);
    current = runner;
    try {
      if (stopped) {
        throw new StartFailedException("bench mongodb was interrupted.", null);
      }
      return runner.execute();
    } finally {
      current = null;
    }
  }

  /** The end of the bench: the process context's objects close. */
  @Override
  public void close() {
    process.close();
  }

  /** Stops the run in progress, and every later one before it starts (Ctrl-C). */
  void stop() {
    stopped = true;
    Runner runner = current;
    if (runner != null) {
      runner.stop(StopReason.INTERRUPTED);
    }
  }
}
