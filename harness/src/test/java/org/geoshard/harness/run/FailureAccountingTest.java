package org.geoshard.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.measure.LatencyStats;
import org.geoshard.harness.measure.StopReason;
import org.geoshard.harness.output.RunResult;
import org.geoshard.harness.output.TimeseriesWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.DB;

/** Failures are counted as errors, never as throughput; batches settle their records; a dead phase gives up. */
class FailureAccountingTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  private static Properties workload(String... pairs) {
    return RunnerTest.workloada(pairs);
  }

  private RunResult run(Phase phase, Properties p, Class<? extends DB> db) throws Exception {
    p.setProperty("results.dir", dir.resolve("run").toString());
    RunSettings settings = RunSettings.fromProperties(phase, p, "test");
    return new Runner(settings, p, new Binding("test", db), dir).execute();
  }

  @Test
  void throughputCountsOnlySuccessfulOperationsInEveryOutput() throws Exception {
    RunResult result = run(Phase.RUN, workload("operationcount", "0", "maxexecutiontime", "3", "threadcount", "2",
        "stats.warmup", "0"),
        FaultBindings.HalfFailingDB.class);
    long ok = result.operations() - result.errors();
    assertThat(result.errors()).isPositive();
    // Each binding instance fails every second call: half, to within one per thread.
    assertThat(Math.abs(result.operations() - 2 * result.errors())).isLessThanOrEqualTo(2);
    assertThat(result.throughput()).isCloseTo(ok * 1000.0 / result.runtimeMs(), org.assertj.core.data.Offset.offset(0.01));

    JsonNode summary = JSON.readTree(result.folder().resolve("summary.json").toFile());
    assertThat(summary.get("succeeded").asLong()).isEqualTo(ok);
    assertThat(summary.get("throughput").asDouble())
        .isCloseTo(ok * 1000.0 / result.runtimeMs(), org.assertj.core.data.Offset.offset(0.01));
    assertThat(Files.readString(result.folder().resolve("summary.txt"))).contains("[OVERALL], Succeeded, " + ok);

    // The time series: opsPerSec of a row is (ops - errors) per second of the row, errors beside it.
    List<String> rows = Files.readAllLines(result.folder().resolve(TimeseriesWriter.FILE_NAME));
    long rowsOk = 0;
    for (String row : rows.subList(1, rows.size())) {
      String[] c = row.split(",");
      if (c[3].equals("CLEANUP")) {
        continue;
      }
      long ops = Long.parseLong(c[4]);
      long errors = Long.parseLong(c[5]);
      double expected = Math.max(0, ops - errors) * 1000.0 / Long.parseLong(c[2]);
      assertThat(Double.parseDouble(c[6])).as(row).isCloseTo(expected, org.assertj.core.data.Offset.offset(0.051));
      rowsOk += Math.max(0, ops - errors);
    }
    assertThat(rowsOk).isBetween(ok - 4, ok + 4);  // an error may land in the interval next to its latency

    // The plateau is the mean of the successful operations per full second, as the time series shows them.
    java.util.Map<Long, Double> okPerSecond = new java.util.TreeMap<>();
    for (String row : rows.subList(1, rows.size())) {
      String[] c = row.split(",");
      if (!c[3].equals("CLEANUP") && Long.parseLong(c[2]) >= 500) {
        okPerSecond.merge(Long.parseLong(c[0]), Double.parseDouble(c[6]), Double::sum);
      }
    }
    double mean = okPerSecond.values().stream().mapToDouble(Double::doubleValue).average().orElseThrow();
    JsonNode plateau = summary.get("plateau");
    assertThat(plateau.get("seconds").asInt()).isEqualTo(okPerSecond.size());
    assertThat(plateau.get("meanOpsPerSec").asDouble()).isCloseTo(mean, org.assertj.core.data.Offset.offset(5.0));
  }

  @Test
  void failedOperationsHaveTheirOwnLatenciesApartFromTheSuccesses() throws Exception {
    // 100 reads, every second one fails after 20 ms: the successes' latencies must not contain those 20 ms.
    RunResult result = run(Phase.RUN, workload("operationcount", "100", "threadcount", "1", "readproportion", "1",
        "updateproportion", "0"), FaultBindings.SlowFailureDB.class);
    LatencyStats read = result.perOperation().get("READ");
    assertThat(read.count()).isEqualTo(100);
    assertThat(read.errors()).isEqualTo(50);
    assertThat(read.p50Us()).as("successes only").isLessThan(FaultBindings.SlowFailureDB.FAILURE_MICROS);
    assertThat(read.failed().count()).isEqualTo(50);
    assertThat(read.failed().minUs()).isGreaterThanOrEqualTo(FaultBindings.SlowFailureDB.FAILURE_MICROS);
    assertThat(result.overall().failed().count()).isEqualTo(50);

    JsonNode summary = JSON.readTree(result.folder().resolve("summary.json").toFile());
    assertThat(summary.at("/perOperation/READ/count").asLong()).isEqualTo(100);
    assertThat(summary.at("/perOperation/READ/p50Us").asLong()).isLessThan(FaultBindings.SlowFailureDB.FAILURE_MICROS);
    assertThat(summary.at("/perOperation/READ/failed/count").asLong()).isEqualTo(50);
    assertThat(summary.at("/perOperation/READ/failed/p50Us").asLong())
        .isGreaterThanOrEqualTo(FaultBindings.SlowFailureDB.FAILURE_MICROS);
    assertThat(Files.readString(result.folder().resolve("summary.txt"))).contains("[READ-FAILED], Operations, 50");

    // The .hlog of READ holds the 50 successes, failed/READ.hlog the 50 failures.
    assertThat(hlogCount(result.folder().resolve("READ.hlog"))).isEqualTo(50);
    assertThat(hlogCount(result.folder().resolve("failed/READ.hlog"))).isEqualTo(50);
    // The time series counts all 100 with their errors, and its latency columns are the successes'.
    long ops = 0;
    long errors = 0;
    List<String> rows = Files.readAllLines(result.folder().resolve(TimeseriesWriter.FILE_NAME));
    for (String row : rows.subList(1, rows.size())) {
      String[] c = row.split(",");
      if (c[3].equals("READ")) {
        ops += Long.parseLong(c[4]);
        errors += Long.parseLong(c[5]);
        if (Long.parseLong(c[4]) > Long.parseLong(c[5])) {
          assertThat(Long.parseLong(c[7])).as(row).isLessThan(FaultBindings.SlowFailureDB.FAILURE_MICROS);
        }
      }
    }
    assertThat(ops).isEqualTo(100);
    assertThat(errors).isEqualTo(50);
  }

  @Test
  void timeABindingWaitsToRetryIsNotLatency() throws Exception {
    // Each read waits 30 ms to "reconnect" and then answers at once: 30 ms is not how long the read took.
    RunResult result = run(Phase.RUN, workload("operationcount", "20", "threadcount", "1", "readproportion", "1",
        "updateproportion", "0"), FaultBindings.BackingOffDB.class);
    LatencyStats read = result.perOperation().get("READ");
    assertThat(read.count()).isEqualTo(20);
    assertThat(read.p50Us()).isLessThan(FaultBindings.BackingOffDB.BACKOFF_MICROS);
    assertThat(result.runtimeMs()).as("the wait did happen").isGreaterThanOrEqualTo(20 * 30);
  }

  private static long hlogCount(Path log) throws Exception {
    long count = 0;
    try (org.HdrHistogram.HistogramLogReader reader = new org.HdrHistogram.HistogramLogReader(log.toFile())) {
      org.HdrHistogram.EncodableHistogram h;
      while ((h = reader.nextIntervalHistogram()) != null) {
        count += ((org.HdrHistogram.Histogram) h).getTotalCount();
      }
    }
    return count;
  }

  @Test
  void bufferedInsertsCountAsTheBatchThatCarriedThem() throws Exception {
    // 3 threads × 1000 records, batches of 10, every second batch fails: successful inserts = rows written.
    RunResult result = run(Phase.LOAD, workload("recordcount", "3000", "threadcount", "3", "test.sink", "acc-1",
        "test.failevery", "2"), FaultBindings.ReportingBatchDB.class);
    LatencyStats insert = result.perOperation().get("INSERT");
    long written = FaultBindings.WRITTEN.get("acc-1").get();
    assertThat(insert.count()).isEqualTo(3000);
    assertThat(insert.count() - insert.errors()).isEqualTo(written);
    assertThat(written).isEqualTo(1500);
    assertThat(result.errors()).isEqualTo(1500);
    assertThat(result.hasFailures()).isTrue();
  }

  @Test
  void recordsBufferedByAThreadThatOutlivesTheGraceAreErrorsInTheRunsCounts() throws Exception {
    // 3 threads × 35 records, batches of 10: 30 settled each, 5 left for a flush that waits on a dead server
    // beyond the phase's time and then the stop's grace. Every record handed to the binding is counted: the 15
    // as errors.
    Properties p = workload("recordcount", "105", "threadcount", "3", "test.flushwait.ms", "20000",
        "maxexecutiontime", "2");
    p.setProperty("results.dir", dir.resolve("run").toString());
    RunSettings settings = RunSettings.fromProperties(Phase.LOAD, p, "test");
    RunResult result = new Runner(settings, p, new Binding("test", FaultBindings.HangingFlushDB.class), dir)
        .stopGrace(java.time.Duration.ofMillis(300)).execute();
    LatencyStats insert = result.perOperation().get("INSERT");
    assertThat(insert.count()).as("every record handed to the binding").isEqualTo(105);
    assertThat(insert.errors()).as("the three flushes still waiting").isEqualTo(15);
    assertThat(result.hasFailures()).isTrue();
    JsonNode summary = JSON.readTree(result.folder().resolve("summary.json").toFile());
    assertThat(summary.get("succeeded").asLong()).isEqualTo(90);
  }

  @Test
  void aLoadIntoADeadDatabaseGivesUpWithACompleteRunFolder() throws Exception {
    long began = System.nanoTime();
    // Ten million records to load, every batch fails: without the rule this would run for a long time.
    RunResult result = run(Phase.LOAD, workload("recordcount", "10000000", "threadcount", "2", "test.sink", "acc-2",
        "test.failevery", "1", "giveup.s", "1"), FaultBindings.ReportingBatchDB.class);
    long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);

    assertThat(result.stopReason()).isEqualTo(StopReason.GIVEUP);
    assertThat(result.hasFailures()).isTrue();
    assertThat(result.operations()).isLessThan(10_000_000);
    assertThat(result.throughput()).isZero();
    assertThat(FaultBindings.WRITTEN.get("acc-2")).isNull();
    assertThat(tookMs).isLessThan(60_000);  // a bound, not a timing assertion: it gives up after about 1-2 s
    JsonNode summary = JSON.readTree(result.folder().resolve("summary.json").toFile());
    assertThat(summary.get("stopReason").asText()).isEqualTo("giveup");
    assertThat(summary.get("succeeded").asLong()).isZero();
    JsonNode record = JSON.readTree(result.folder().resolve("run.json").toFile());
    assertThat(record.get("stopReason").asText()).isEqualTo("giveup");
    assertThat(record.get("status").asText()).isEqualTo("finished");
  }

  @Test
  void aBindingThatCannotStartLeavesItsReasonInRunJson() throws Exception {
    Properties p = workload("operationcount", "10", "threadcount", "2");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> run(Phase.RUN, p, TestBindings.UnreachableDB.class))
        .isInstanceOf(StartFailedException.class);
    JsonNode record = JSON.readTree(dir.resolve("run/run.json").toFile());
    assertThat(record.get("status").asText()).isEqualTo("failed to start");
    assertThat(record.get("failure").asText()).isEqualTo("The run could not start: no server reachable at localhost:1");
  }
}
