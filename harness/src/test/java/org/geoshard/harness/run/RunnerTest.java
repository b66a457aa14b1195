package org.geoshard.harness.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.HistogramLogReader;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.binding.NoopDB;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.measure.StopReason;
import org.geoshard.harness.output.RunResult;
import org.geoshard.harness.output.TimeseriesWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.BasicDB;
import site.ycsb.DB;
import site.ycsb.workloads.CoreWorkload;

class RunnerTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  static Properties workloada(String... pairs) {
    Properties p = new Properties();
    p.setProperty("workload", CoreWorkload.class.getName());
    p.setProperty("recordcount", "1000");
    p.setProperty("readproportion", "0.5");
    p.setProperty("updateproportion", "0.5");
    p.setProperty("status.interval", "0");
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return p;
  }

  private RunResult run(Phase phase, Properties p, Class<? extends DB> db) throws Exception {
    p.setProperty("results.dir", dir.resolve("run").toString());
    RunSettings settings = RunSettings.fromProperties(phase, p, "test");
    return new Runner(settings, p, new Binding("test", db), dir).execute();
  }

  @Test
  void runWritesACompleteRunFolder() throws Exception {
    Properties p = workloada("operationcount", "10000", "threadcount", "4",
        "mongodb.url", "mongodb://bench:hunter2@db1:27017/ycsb");
    RunResult result = run(Phase.RUN, p, NoopDB.class);

    assertThat(result.stopReason()).isEqualTo(StopReason.COMPLETED);
    assertThat(result.operations()).isEqualTo(10_000);
    assertThat(result.errors()).isZero();
    assertThat(result.hasFailures()).isFalse();
    Path folder = result.folder();
    assertThat(folder).isEqualTo(dir.resolve("run"));

    JsonNode summary = JSON.readTree(folder.resolve("summary.json").toFile());
    assertThat(summary.get("operations").asLong()).isEqualTo(10_000);
    assertThat(summary.get("stopReason").asText()).isEqualTo("completed");
    assertThat(summary.get("throughput").asDouble()).isPositive();
    long read = summary.at("/perOperation/READ/count").asLong();
    long update = summary.at("/perOperation/UPDATE/count").asLong();
    assertThat(read + update).isEqualTo(10_000);
    // A 50/50 mix over 10,000 operations: far outside 5 standard deviations (250) would be a bug.
    assertThat(read).isBetween(4750L, 5250L);
    for (String field : List.of("count", "errors", "p50Us", "p95Us", "p99Us", "maxUs")) {
      assertThat(summary.at("/perOperation/READ").has(field)).as(field).isTrue();
    }
    assertThat(summary.at("/perOperation/CLEANUP/count").asLong()).isEqualTo(4);

    JsonNode record = JSON.readTree(folder.resolve("run.json").toFile());
    assertThat(record.get("status").asText()).isEqualTo("finished");
    assertThat(record.get("stopReason").asText()).isEqualTo("completed");
    assertThat(record.get("warmupSeconds").asLong()).isEqualTo(5);
    assertThat(record.at("/properties/mongodb.url").asText()).isEqualTo("mongodb://bench:****@db1:27017/ycsb");
    assertThat(Files.readString(folder.resolve("run.json"))).doesNotContain("hunter2");
    assertThat(record.at("/versions/ycsbCore").asText()).isEqualTo("0.17.0");
    assertThat(record.at("/host/cores").asInt()).isPositive();
    assertThat(record.has("startTime") && record.has("endTime")).isTrue();

    Map<String, Long> csvCounts = timeseriesCounts(folder);
    assertThat(csvCounts).containsEntry("READ", read).containsEntry("UPDATE", update);
    assertThat(hlogCount(folder.resolve("READ.hlog"))).isEqualTo(read);
    assertThat(hlogCount(folder.resolve("UPDATE.hlog"))).isEqualTo(update);
    assertThat(Files.readString(folder.resolve("summary.txt")))
        .contains("[OVERALL], Operations, 10000").contains("[READ], Operations, " + read)
        .contains("[OVERALL], StopReason, completed");
  }

  @Test
  void operationCountZeroRunsUntilTheTimeIsUp() throws Exception {
    long start = System.nanoTime();
    RunResult result = run(Phase.RUN, workloada("operationcount", "0", "maxexecutiontime", "2", "threadcount", "2"),
        NoopDB.class);
    long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    assertThat(result.stopReason()).isEqualTo(StopReason.TIME);
    assertThat(result.operations()).isPositive();
    // The upper bound only rules out a run that ignores the time (several times the 2 s, for busy machines).
    assertThat(result.runtimeMs()).isBetween(1900L, 15_000L);
    assertThat(elapsedMs).isGreaterThanOrEqualTo(1900L);
    // At least one full one-second interval per operation in the time series.
    assertThat(Files.readAllLines(result.folder().resolve("timeseries.csv"))).hasSizeGreaterThan(2);
  }

  @Test
  void loadFlushesWhatTheBindingBufferedAtCleanup() throws Exception {
    Properties p = workloada("recordcount", "1000", "threadcount", "3", "test.sink", "load-1");
    RunResult result = run(Phase.LOAD, p, TestBindings.BufferingDB.class);
    assertThat(result.operations()).isEqualTo(1000);
    List<String> flushed = List.copyOf(TestBindings.SINKS.get("load-1"));
    assertThat(flushed).hasSize(1000);
    assertThat(new HashSet<>(flushed)).hasSize(1000);
  }

  @Test
  void anOperationStillInFlightAfterTheStopIsCountedAsAnErrorOfItsOperation() throws Exception {
    String stall = java.util.UUID.randomUUID().toString();
    Properties p = workloada("operationcount", "0", "maxexecutiontime", "1", "threadcount", "3", "readproportion", "1",
        "updateproportion", "0", "test.stall", stall, "test.stall.after", "100");
    p.setProperty("results.dir", dir.resolve("run").toString());
    Runner runner = new Runner(RunSettings.fromProperties(Phase.RUN, p, "test"), p,
        new Binding("test", TestBindings.StalledDB.class), dir).stopGrace(java.time.Duration.ofMillis(300));
    RunResult result;
    try {
      result = runner.execute();
    } finally {
      TestBindings.stall(stall).countDown();  // the late answers must not be counted a second time
    }
    assertThat(result.perOperation().get("READ").errors()).as("one hung read per thread").isEqualTo(3);
    assertThat(result.perOperation().get("READ").count()).isEqualTo(303);
    assertThat(result.errors()).isEqualTo(3);
    assertThat(result.hasFailures()).as("so the command exits 1").isTrue();
    assertThat(result.perOperation().get("READ").failed().maxUs()).as("the hung reads' time so far, as failures").isGreaterThanOrEqualTo(300_000);
    Thread.sleep(200);
    JsonNode summary = JSON.readTree(result.folder().resolve("summary.json").toFile());
    assertThat(summary.at("/perOperation/READ/errors").asLong()).isEqualTo(3);
  }

  @Test
  void errorsAndExceptionsAreCountedPerOperation() throws Exception {
    RunResult result = run(Phase.RUN, workloada("operationcount", "3000", "threadcount", "2"),
        TestBindings.FailingDB.class);
    assertThat(result.hasFailures()).isTrue();
    long reads = result.perOperation().get("READ").count();
    long updates = result.perOperation().get("UPDATE").count();
    // Each thread's binding fails its own every third read: the sum of floor(r_i / 3) over 2 threads.
    long readErrors = result.perOperation().get("READ").errors();
    assertThat(readErrors).isBetween(reads / 3 - 1, reads / 3);
    assertThat(result.perOperation().get("UPDATE").errors()).isEqualTo(updates);
    assertThat(result.errors()).isEqualTo(readErrors + updates);
    assertThat(result.operations()).isEqualTo(3000);
  }

  @Test
  void readsThatFoundNoRecordAreNamedOnceWithTheirCountAndTheLikelyCause() throws Exception {
    List<String> logged = new ArrayList<>();
    RunResult result = withRunnerLines(logged, () -> run(Phase.RUN, workloada("operationcount", "3000",
        "recordcount", "5000", "readproportion", "1", "updateproportion", "0"), TestBindings.MissingKeysDB.class));
    // One thread: reads 3, 6, ... (1,000) found nothing; 5, 10, ... but not 15, ... (400) failed otherwise.
    assertThat(result.perOperation().get("READ").errors()).isEqualTo(1400);
    List<String> notFound = logged.stream().filter(line -> line.contains("NOT_FOUND")).toList();
    assertThat(notFound).containsExactly("READ: 1,000 of 3,000 reads found no record (NOT_FOUND, counted as errors):"
        + " recordcount (5000) is above what was loaded?");
  }

  @Test
  void withoutNotFoundNothingIsSaidOfIt() throws Exception {
    List<String> logged = new ArrayList<>();
    withRunnerLines(logged, () -> run(Phase.RUN, workloada("operationcount", "300"), TestBindings.FailingDB.class));
    assertThat(logged).noneMatch(line -> line.contains("NOT_FOUND"));
  }

  /** Runs the phase, adding what the Runner logged meanwhile (at the tests' level) to {@code lines}. */
  private static <T> T withRunnerLines(List<String> lines, java.util.concurrent.Callable<T> phase) throws Exception {
    ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(Runner.class);
    ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> logged =
        new ch.qos.logback.core.read.ListAppender<>();
    logged.start();
    logger.addAppender(logged);
    try {
      return phase.call();
    } finally {
      logger.detachAppender(logged);
      logged.list.forEach(event -> lines.add(event.getFormattedMessage()));
    }
  }

  @Test
  void aCrashedThreadIsCountedAndTheOthersFinish() throws Exception {
    Properties p = workloada("operationcount", "4000", "threadcount", "4");
    p.setProperty("workload", TestBindings.CrashingWorkload.class.getName());
    RunResult result = run(Phase.RUN, p, NoopDB.class);
    assertThat(result.threadFailures()).isEqualTo(1);
    assertThat(result.operations()).isEqualTo(3 * 1000 + 50);
    assertThat(result.hasFailures()).isTrue();
  }

  @Test
  void aBindingThatCannotStartStopsTheRunWithItsMessage() throws Exception {
    Properties p = workloada("operationcount", "10", "threadcount", "2");
    assertThatThrownBy(() -> run(Phase.RUN, p, TestBindings.UnreachableDB.class))
        .isInstanceOf(StartFailedException.class)
        .hasMessageContaining("no server reachable at localhost:1");
    JsonNode record = JSON.readTree(dir.resolve("run/run.json").toFile());
    assertThat(record.get("status").asText()).isEqualTo("failed to start");
    assertThat(dir.resolve("run/summary.json")).doesNotExist();
  }

  @Test
  void aStopFromAnotherThreadKeepsEverythingMeasured() throws Exception {
    Properties p = workloada("operationcount", "0", "maxexecutiontime", "600", "threadcount", "2",
        "results.dir", dir.resolve("run").toString());
    RunSettings settings = RunSettings.fromProperties(Phase.RUN, p, "test");
    Runner runner = new Runner(settings, p, new Binding("noop", NoopDB.class), dir);
    CompletableFuture<RunResult> future = CompletableFuture.supplyAsync(() -> {
      try {
        return runner.execute();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    AwaitSecond.in(dir.resolve("run"), 1, future);
    runner.stop(StopReason.INTERRUPTED);
    RunResult result = future.get(60, TimeUnit.SECONDS);
    assertThat(runner.awaitFinished(java.time.Duration.ofSeconds(1))).isTrue();
    assertThat(result.stopReason()).isEqualTo(StopReason.INTERRUPTED);
    assertThat(result.operations()).isPositive();
    JsonNode summary = JSON.readTree(result.folder().resolve("summary.json").toFile());
    assertThat(summary.get("operations").asLong()).isEqualTo(result.operations());
    assertThat(timeseriesCounts(result.folder()).values().stream().mapToLong(Long::longValue).sum())
        .isEqualTo(result.operations() + 2);  // + the two CLEANUP calls
  }

  @Test
  void workloadsMeasureContractOperationsUnderTheirOwnNames() throws Exception {
    Properties p = workloada("operationcount", "500", "threadcount", "2");
    p.setProperty("workload", TestBindings.PingWorkload.class.getName());
    RunResult result = run(Phase.RUN, p, TestBindings.PingDB.class);
    assertThat(result.perOperation().get("PING").count()).isEqualTo(500);
    assertThat(result.operations()).isEqualTo(500);
  }

  @Test
  void aBindingWithoutTheContractIsRefusedBeforeTheStart() {
    Properties p = workloada("operationcount", "5");
    p.setProperty("workload", TestBindings.PingWorkload.class.getName());
    assertThatThrownBy(() -> run(Phase.RUN, p, NoopDB.class))
        .isInstanceOf(ConfigException.class)
        .hasMessage("Binding 'test' (org.geoshard.harness.binding.NoopDB) does not implement Pinger,"
            + " which workload PingWorkload needs.");
    assertThat(dir.resolve("run")).doesNotExist();
  }

  @Test
  void aTargetRatePacesTheThreads() throws Exception {
    RunResult result = run(Phase.RUN, workloada("operationcount", "0", "maxexecutiontime", "2", "threadcount", "2",
        "target", "1000"), NoopDB.class);
    // Unpaced, the no-op binding does millions per second; the margin is for busy machines.
    assertThat(result.throughput()).isBetween(500.0, 1500.0);
  }

  @Test
  void anExistingRunIsNeverOverwritten() throws Exception {
    run(Phase.RUN, workloada("operationcount", "10"), NoopDB.class);
    assertThatThrownBy(() -> run(Phase.RUN, workloada("operationcount", "10"), NoopDB.class))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("already holds a run");
  }

  @Test
  void ycsbsBasicDbRunsUnchanged() throws Exception {
    RunResult result = run(Phase.LOAD, workloada("recordcount", "200", "threadcount", "2", "basicdb.verbose", "false"), BasicDB.class);
    assertThat(result.perOperation().get("INSERT").count()).isEqualTo(200);
    assertThat(result.hasFailures()).isFalse();
  }

  @Test
  void coreWorkloadSettingsThatWouldEndTheJvmAreRefused() {
    Properties p = workloada("operationcount", "10", "dataintegrity", "true", "fieldlengthdistribution", "uniform");
    assertThatThrownBy(() -> run(Phase.RUN, p, NoopDB.class))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("dataintegrity=true");
  }

  @Test
  @org.junit.jupiter.api.Timeout(120)  // before the refusal, this run never ended
  void aKeyRangeWithoutAKeyIsRefusedBeforeTheStartWithItsNumbers() {
    // Before: the key chooser never returned, no operation ended, and the run exited 0.
    assertThatThrownBy(() -> run(Phase.RUN, workloada("recordcount", "400", "insertstart", "5000000",
        "operationcount", "10"), NoopDB.class))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("insertstart (5000000) is not below recordcount (400)")
        .hasMessageContaining("recordcount - insertstart = -4999600");
    assertThatThrownBy(() -> run(Phase.RUN, workloada("recordcount", "400", "insertstart", "400",
        "operationcount", "10"), NoopDB.class))
        .isInstanceOf(ConfigException.class).hasMessageContaining("insertstart (400) is not below recordcount (400)");
    assertThatThrownBy(() -> run(Phase.RUN, workloada("insertcount", "0", "operationcount", "10"), NoopDB.class))
        .isInstanceOf(ConfigException.class).hasMessageContaining("Property insertcount is 0");
    assertThatThrownBy(() -> run(Phase.LOAD, workloada("insertstart", "900", "insertcount", "200"), NoopDB.class))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("insertstart (900) + insertcount (200)").hasMessageContaining("recordcount (1000)");
    assertThatThrownBy(() -> run(Phase.RUN, workloada("insertstart", "-5", "operationcount", "10"), NoopDB.class))
        .isInstanceOf(ConfigException.class).hasMessageContaining("insertstart");
  }

  @Test
  void aKeyRangeInsideTheRecordsRuns() throws Exception {
    RunResult result = run(Phase.RUN, workloada("insertstart", "600", "operationcount", "50"), NoopDB.class);
    assertThat(result.operations()).isEqualTo(50);
    assertThat(result.nothingSucceeded()).isFalse();
  }

  static Map<String, Long> timeseriesCounts(Path folder) throws IOException {
    List<String> lines = Files.readAllLines(folder.resolve(TimeseriesWriter.FILE_NAME));
    assertThat(lines.get(0)).isEqualTo(TimeseriesWriter.HEADER);
    Map<String, Long> counts = new HashMap<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] cells = line.split(",");
      counts.merge(cells[3], Long.parseLong(cells[4]), Long::sum);
    }
    return counts;
  }

  static long hlogCount(Path hlog) throws IOException {
    long total = 0;
    try (HistogramLogReader reader = new HistogramLogReader(new File(hlog.toString()))) {
      EncodableHistogram histogram;
      while ((histogram = reader.nextIntervalHistogram()) != null) {
        total += ((org.HdrHistogram.Histogram) histogram).getTotalCount();
      }
    }
    return total;
  }
}
