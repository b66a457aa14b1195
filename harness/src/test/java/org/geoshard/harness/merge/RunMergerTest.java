package org.geoshard.harness.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.binding.NoopDB;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.measure.OperationMeter;
import org.geoshard.harness.output.RunResult;
import org.geoshard.harness.ramp.StepRecord;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.Runner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.workloads.CoreWorkload;

class RunMergerTest {
  @TempDir
  Path dir;

  private Properties props(String folder, String... pairs) {
    Properties p = new Properties();
    p.setProperty("workload", CoreWorkload.class.getName());
    p.setProperty("recordcount", "1000");
    p.setProperty("readproportion", "0.7");
    p.setProperty("updateproportion", "0.3");
    p.setProperty("status.interval", "0");
    p.setProperty("stats.warmup", "0");
    p.setProperty("results.dir", dir.resolve(folder).toString());
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return p;
  }

  private static CompletableFuture<RunResult> start(Properties p) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        return new Runner(RunSettings.fromProperties(Phase.RUN, p, "client"), p, new Binding("noop", NoopDB.class),
            Path.of("unused")).execute();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
  }

  private static Histogram total(Path hlog) throws Exception {
    Histogram sum = OperationMeter.newHistogram();
    try (HistogramLogReader reader = new HistogramLogReader(new File(hlog.toString()))) {
      EncodableHistogram h;
      while ((h = reader.nextIntervalHistogram()) != null) {
        sum.add((Histogram) h);
      }
    }
    return sum;
  }

  @Test
  void theMergeOfTwoClientsEqualsBothTogether() throws Exception {
    CompletableFuture<RunResult> a = start(props("a", "operationcount", "0", "maxexecutiontime", "3",
        "threadcount", "2", "target", "600"));
    CompletableFuture<RunResult> b = start(props("b", "operationcount", "0", "maxexecutiontime", "3",
        "threadcount", "1", "target", "300"));
    RunResult ra = a.get();
    RunResult rb = b.get();

    // Unequal clients (threads and target differ, so their identities do): allowed, to see the sums are exact.
    RunResult merged = RunMerger.merge(List.of(ra.folder(), rb.folder()), dir.resolve("merged"), true);

    assertThat(merged.operations()).isEqualTo(ra.operations() + rb.operations());
    for (String op : List.of("READ", "UPDATE")) {
      assertThat(merged.perOperation().get(op).count())
          .isEqualTo(ra.perOperation().get(op).count() + rb.perOperation().get(op).count());
      Histogram both = total(ra.folder().resolve(op + ".hlog"));
      both.add(total(rb.folder().resolve(op + ".hlog")));
      assertThat(merged.perOperation().get(op).p99Us()).isEqualTo(both.getValueAtPercentile(99));
      assertThat(merged.perOperation().get(op).p50Us()).isEqualTo(both.getValueAtPercentile(50));
      assertThat(merged.perOperation().get(op).maxUs()).isEqualTo(both.getMaxValue());
      assertThat(total(merged.folder().resolve(op + ".hlog")).getTotalCount()).isEqualTo(both.getTotalCount());
    }
    // Combined throughput: about 600 + 300 operations per second.
    assertThat(merged.throughput()).isCloseTo(900, within(360.0));  // 40%: paced, on a possibly busy machine
    assertThat(merged.threads()).isEqualTo(3);

    long csvOps = Files.readAllLines(merged.folder().resolve("timeseries.csv")).stream().skip(1)
        .map(line -> line.split(","))
        .filter(cells -> !cells[3].equals("CLEANUP"))
        .mapToLong(cells -> Long.parseLong(cells[4])).sum();
    assertThat(csvOps).isEqualTo(merged.operations());
    JsonNode record = new ObjectMapper().readTree(merged.folder().resolve("run.json").toFile());
    assertThat(record.get("command").asText()).isEqualTo("merge");
    assertThat(record.get("sources")).hasSize(2);
  }

  @Test
  void rampStepsAddTheirThreadsAndAreJudgedOnTheSums() throws Exception {
    CompletableFuture<RunResult> a = start(props("ra", "ramp.mode", "threads", "ramp.start", "1", "ramp.step", "1",
        "ramp.interval", "1", "ramp.maxthreads", "2", "target", "0", "sla.latency.ms", "5000"));
    CompletableFuture<RunResult> b = start(props("rb", "ramp.mode", "threads", "ramp.start", "1", "ramp.step", "1",
        "ramp.interval", "1", "ramp.maxthreads", "2", "target", "0", "sla.latency.ms", "5000"));
    RunResult ra = a.get();
    RunResult rb = b.get();
    RunResult merged = RunMerger.merge(List.of(ra.folder(), rb.folder()), dir.resolve("merged-ramp"));
    assertThat(merged.ramp().steps()).extracting(StepRecord::threads).containsExactly(2, 4);
    assertThat(merged.ramp().maxSustainedThroughput()).isPositive();
    JsonNode summary = new ObjectMapper().readTree(merged.folder().resolve("summary.json").toFile());
    assertThat(summary.at("/ramp/steps/1/threads").asInt()).isEqualTo(4);
  }

  @Test
  void missingOrBrokenFilesAreNamed() throws Exception {
    Path empty = Files.createDirectories(dir.resolve("empty"));
    assertThatThrownBy(() -> RunMerger.merge(List.of(empty, empty), dir.resolve("m")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(empty.resolve("run.json") + " is missing");
    assertThatThrownBy(() -> RunMerger.merge(List.of(empty), dir.resolve("m")))
        .hasMessageContaining("at least two run folders");
  }
}
