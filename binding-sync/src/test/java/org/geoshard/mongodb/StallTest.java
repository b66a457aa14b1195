package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.output.RunResult;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.Runner;
import org.geoshard.harness.ramp.StepRecord;
import org.geoshard.harness.ramp.Verdict;
import org.geoshard.harness.measure.StopReason;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.workloads.CoreWorkload;

/**
 * A server that stops answering in the middle of a run (a TCP proxy that holds the connections and
 * forwards nothing): every request ends at its deadline as an error of its operation, the run ends at
 * its time, and it reports the failures (the command exits 1).
 */
class StallTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir
  Path dir;
  private InProcessMongo mongo;
  private StallingProxy proxy;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

  @BeforeEach
  void start() throws Exception {
    mongo = new InProcessMongo();
    proxy = new StallingProxy(mongo.port());
  }

  @AfterEach
  void stop() throws Exception {
    timer.shutdownNow();
    proxy.close();
    mongo.close();
  }

  private Properties properties(String folder) {
    Properties p = new Properties();
    p.setProperty("mongodb.url", proxy.url("ycsb"));
    p.setProperty("mongodb.serverSelectionTimeout", "2");
    p.setProperty("workload", CoreWorkload.class.getName());
    p.setProperty("recordcount", "100");
    p.setProperty("readproportion", "1");
    p.setProperty("updateproportion", "0");
    p.setProperty("threadcount", "4");
    p.setProperty("status.interval", "0");
    p.setProperty("results.dir", dir.resolve(folder).toString());
    return p;
  }

  /** Loads the records through the proxy while it still forwards. */
  private void load() throws Exception {
    Properties load = properties("load");
    assertThat(new Runner(RunSettings.fromProperties(Phase.LOAD, load, "stall"), load,
        new Binding("mongodb-geo", MongoGeoBinding.class), dir).execute().hasFailures()).isFalse();
  }

  /**
   * A run that only a stop ends: 10 minutes, with the scenario files' long deadline (no request ends by
   * itself) and the given {@code giveup.s} (0: never).
   */
  private Properties untilStopped(String folder, int giveUpSeconds) {
    Properties run = properties(folder);
    run.setProperty("mongodb.timeout.ms", "500000");
    run.setProperty("giveup.s", Integer.toString(giveUpSeconds));
    run.setProperty("operationcount", "0");
    run.setProperty("maxexecutiontime", "600");
    return run;
  }

  /** Runs the phase, the proxy stalling 1.5 s after its start. */
  private RunResult runStallingAfterASecondAndAHalf(Properties run) throws Exception {
    timer.schedule(proxy::stall, 1500, TimeUnit.MILLISECONDS);
    return new Runner(RunSettings.fromProperties(Phase.RUN, run, "stall"), run,
        new Binding("mongodb-geo", MongoGeoBinding.class), dir).execute();
  }

  @Test
  void aStalledServerEndsEachRequestAtItsDeadlineAsAnErrorAndTheRunAtItsTime() throws Exception {
    load();

    Properties run = properties("run");
    run.setProperty("mongodb.timeout.ms", "2000");  // the load had the default; a busy machine still connects in 2 s
    run.setProperty("operationcount", "0");
    run.setProperty("maxexecutiontime", "4");
    long start = System.nanoTime();
    RunResult result = runStallingAfterASecondAndAHalf(run);
    long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);

    // Well within maxexecutiontime + the stop's grace (4 + 30 s): nobody waited for the grace.
    assertThat(seconds).isLessThan(4 + 30);
    assertThat(result.stopReason()).isEqualTo(StopReason.TIME);
    long errors = result.perOperation().get("READ").errors();
    // Each of the 4 threads had a read in flight when the server stalled, and every later one timed out too.
    assertThat(errors).isGreaterThanOrEqualTo(4);
    assertThat(result.errors()).isEqualTo(errors);
    assertThat(result.hasFailures()).as("the command exits 1").isTrue();
    assertThat(result.perOperation().get("READ").count() - errors).as("reads before the stall").isPositive();
    // The errors are in the run folder: the summary and the time series.
    JsonNode summary = JSON.readTree(result.folder().resolve("summary.json").toFile());
    assertThat(summary.at("/errors").asLong()).isEqualTo(errors);
    List<String> lines = Files.readAllLines(result.folder().resolve("timeseries.csv"));
    assertThat(String.join("\n", lines)).contains("READ");
  }

  @Test
  void withTheStudysLongDeadlineAStalledServerIsGivenUpAfterGiveupSeconds() throws Exception {
    load();

    Properties run = untilStopped("giveup", 3);
    long start = System.nanoTime();
    RunResult result = runStallingAfterASecondAndAHalf(run);
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

    assertThat(result.stopReason()).isEqualTo(StopReason.GIVEUP);
    // 1.5 s of reads, 3 s of waiting, then the phase ends without waiting for the requests: the 30 s a
    // phase ending at its time grants them is far above the bound, which leaves a busy machine room.
    assertThat(ms).as("ms to the end of the phase").isBetween(4_500L, 20_000L);
    assertThat(result.perOperation().get("READ").errors()).as("the 4 unanswered reads").isEqualTo(4);
    assertThat(result.hasFailures()).as("the command exits 1").isTrue();
    JsonNode record = JSON.readTree(result.folder().resolve("run.json").toFile());
    assertThat(record.get("stopReason").asText()).isEqualTo("giveup");
  }

  @Test
  void anInterruptWhileEveryRequestWaitsOnAStalledServerEndsThePhaseAtOnce() throws Exception {
    load();

    Properties run = untilStopped("interrupted", 0);
    Runner runner = new Runner(RunSettings.fromProperties(Phase.RUN, run, "stall"), run,
        new Binding("mongodb-geo", MongoGeoBinding.class), dir);
    timer.schedule(proxy::stall, 1500, TimeUnit.MILLISECONDS);
    long[] stoppedAt = new long[1];
    timer.schedule(() -> {
      stoppedAt[0] = System.nanoTime();
      runner.stop(StopReason.INTERRUPTED);
    }, 3500, TimeUnit.MILLISECONDS);
    RunResult result = runner.execute();
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stoppedAt[0]);

    assertThat(result.stopReason()).isEqualTo(StopReason.INTERRUPTED);
    assertThat(ms).as("ms from the interrupt to a complete run folder").isLessThan(10_000L);
    assertThat(result.perOperation().get("READ").errors()).as("the 4 unanswered reads").isEqualTo(4);
    JsonNode summary = JSON.readTree(result.folder().resolve("summary.json").toFile());
    assertThat(summary.get("stopReason").asText()).isEqualTo("interrupted");
  }

  @Test
  void aRampStopsOnTheRequestsAStalledServerNeverAnswered() throws Exception {
    load();

    Properties run = properties("ramp");
    run.setProperty("mongodb.timeout.ms", "2000");
    run.setProperty("ramp.mode", "threads");
    run.setProperty("ramp.start", "2");
    run.setProperty("ramp.step", "2");
    run.setProperty("ramp.interval", "3");
    run.setProperty("stats.warmup", "0");
    run.setProperty("ramp.maxthreads", "8");
    run.setProperty("sla.latency.ms", "1000");
    run.setProperty("sla.timeout.ms", "1500");
    run.setProperty("sla.maxerrors", "1000000");
    run.setProperty("maxexecutiontime", "30");
    RunResult result = runStallingAfterASecondAndAHalf(run);
    // The stalled reads end at their 2 s deadline, longer than sla.timeout.ms: the step they end in ends the search.
    assertThat(result.stopReason()).isEqualTo(StopReason.TIMEOUT);
    StepRecord last = result.ramp().steps().get(result.ramp().steps().size() - 1);
    assertThat(last.verdict()).isEqualTo(Verdict.TIMEOUT);
    assertThat(last.errors()).as("the stalled reads, as errors").isPositive();
    assertThat(last.timeouts()).isPositive();
    assertThat(result.ramp().steps().get(0).threads()).isEqualTo(2);
  }
}
