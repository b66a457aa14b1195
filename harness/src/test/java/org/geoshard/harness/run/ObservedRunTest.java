package org.geoshard.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.geoshard.harness.api.ExplainsOperations;
import org.geoshard.harness.api.ServerProcesses;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.binding.NoopDB;
import org.geoshard.harness.observe.Stage;
import org.geoshard.harness.observe.StageListener;
import org.geoshard.harness.output.RunResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.workloads.CoreWorkload;

/** The runner's observers: stages told in order, explains sampled into run.json, a tracer that cannot run. */
class ObservedRunTest {
  @TempDir
  Path dir;

  /** Explains every read as a query on two of three shards; names a local server process. */
  public static final class ExplainingDB extends NoopDB implements ExplainsOperations, ServerProcesses {
    @Override
    public Optional<QueryExplain> explainLast() {
      return Optional.of(new QueryExplain(List.of("shard01", "shard03"), 5, 1, Map.of()));
    }

    @Override
    public List<Long> localServerPids() {
      return List.of(ProcessHandle.current().pid());
    }
  }

  private Properties props(String name, String... pairs) {
    Properties p = new Properties();
    p.setProperty("workload", CoreWorkload.class.getName());
    p.setProperty("recordcount", "100");
    p.setProperty("readproportion", "1");
    p.setProperty("updateproportion", "0");
    p.setProperty("status.interval", "0");
    p.setProperty("results.dir", dir.resolve(name).toString());
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return p;
  }

  private static JsonNode runJson(RunResult result) throws Exception {
    return new ObjectMapper().readTree(Files.readString(result.folder().resolve("run.json")));
  }

  @Test
  void stageListenersHearTheLoadThenThePreparationAfterIt() throws Exception {
    Properties p = props("stages", "test.log", "observed-stages");
    List<String> heard = new CopyOnWriteArrayList<>();
    new Runner(RunSettings.fromProperties(Phase.LOAD, p, "x"), p, new Binding("prepared",
        PreparationTest.PreparedDB.class), dir)
        .addStageListener(new StageListener() {
          @Override
          public void started(Stage stage) {
            heard.add("start " + stage.label());
          }

          @Override
          public void ended(Stage stage) {
            heard.add("end " + stage.label());
          }
        }).execute();
    assertThat(heard).containsExactly("start load", "end load", "start after-load", "end after-load");
  }

  @Test
  void aRunRecordsTheTargetingOfAFewExplainedReadsPerWindow() throws Exception {
    // One window of an hour: the budget, not the clock, decides how many reads are explained.
    Properties p = props("explain", "operationcount", "2000", "threadcount", "2", "observe.explain.samples", "3",
        "observe.explain.window", "3600");
    RunResult result = new Runner(RunSettings.fromProperties(Phase.RUN, p, "x"), p,
        new Binding("explaining", ExplainingDB.class), dir).execute();
    JsonNode read = runJson(result).path("queryTargeting").path("operations").path("READ");
    assertThat(read.path("samples").asInt()).isEqualTo(3);
    assertThat(read.path("targetsPerQuery").asDouble()).isEqualTo(2.0);
    assertThat(read.path("examinedPerReturned").asDouble()).isEqualTo(5.0);
    assertThat(read.path("windows").size()).isEqualTo(1);
  }

  @Test
  void explainingIsOffWithZeroSamples() throws Exception {
    Properties p = props("noexplain", "operationcount", "100", "observe.explain.samples", "0");
    RunResult result = new Runner(RunSettings.fromProperties(Phase.RUN, p, "x"), p,
        new Binding("explaining", ExplainingDB.class), dir).execute();
    assertThat(runJson(result).has("queryTargeting")).isFalse();
  }

  @Test
  void aTracerThatCannotStartIsSaidOnceAndTheRunGoesOn() throws Exception {
    Properties p = props("notrace", "trace.io", "load,after-load", "trace.io.bpftrace",
        dir.resolve("no-such-bpftrace").toString());
    RunResult result = new Runner(RunSettings.fromProperties(Phase.LOAD, p, "x"), p,
        new Binding("explaining", ExplainingDB.class), dir).execute();
    assertThat(result.operations()).isEqualTo(100);
    JsonNode io = runJson(result).path("io");
    assertThat(io.path("status").asText()).isEqualTo("not traced");
    assertThat(io.path("reason").asText()).contains("no-such-bpftrace", "install bpftrace");
    assertThat(Files.exists(result.folder().resolve("io"))).isFalse();
  }

  @Test
  void withoutALocalProcessTheRunSaysWhichPropertyNamesOne() throws Exception {
    Properties p = props("noprocess", "trace.io", "load");
    RunResult result = new Runner(RunSettings.fromProperties(Phase.LOAD, p, "x"), p,
        new Binding("noop", NoopDB.class), dir).execute();
    assertThat(result.operations()).isEqualTo(100);
    assertThat(runJson(result).path("io").path("reason").asText()).contains("trace.io.processes");
  }
}
