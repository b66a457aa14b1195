package org.geoshard.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.measure.StopReason;
import org.geoshard.harness.output.RunResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A binding's stage watch (the MongoDB balancer's) is told of every stage of the phase, its findings
 * go into run.json per stage, and it is closed (the balancer restored) however the phase ends.
 */
class StageWatchTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;
  private final String sink = UUID.randomUUID().toString();
  private final String stall = UUID.randomUUID().toString();

  @AfterEach
  void release() {
    TestBindings.stall(stall).countDown();
    TestBindings.SINKS.remove(sink);
  }

  private Properties properties(String... pairs) {
    Properties p = RunnerTest.workloada("recordcount", "100", "threadcount", "2", "readproportion", "1",
        "updateproportion", "0", "test.sink", sink, "test.stall", stall, "test.stall.after", "1000000000",
        "results.dir", dir.resolve("run").toString());
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return p;
  }

  private Runner runner(Phase phase, Properties p) throws Exception {
    return new Runner(RunSettings.fromProperties(phase, p, "test"), p,
        new Binding("test", TestBindings.WatchingDB.class), dir);
  }

  private List<String> events() {
    return List.copyOf(TestBindings.SINKS.getOrDefault(sink, new ConcurrentLinkedQueue<>()));
  }

  @Test
  void aLoadIsWatchedStageByStageAndEachStagesFindingIsRecorded() throws Exception {
    RunResult result = runner(Phase.LOAD, properties()).execute();

    assertThat(events()).containsExactly("started load", "ended load", "started after-load", "ended after-load", "close");
    JsonNode watch = JSON.readTree(result.folder().resolve("run.json").toFile()).get("testWatch");
    assertThat(watch.fieldNames()).toIterable().containsExactly("load", "after-load");
    assertThat(watch.at("/load/warning").asText()).isEqualTo("something moved");
    assertThat(watch.at("/load/millis").asLong()).isGreaterThanOrEqualTo(0);
  }

  @Test
  void aRunCutOffOnAStalledServerStillClosesTheWatchButAsksItNothingMore() throws Exception {
    Runner runner = runner(Phase.RUN, properties("operationcount", "0", "maxexecutiontime", "600", "giveup.s", "0",
        "test.stall.after", "10"));
    CompletableFuture<RunResult> run = CompletableFuture.supplyAsync(() -> {
      try {
        return runner.execute();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    // Every thread does its 10 reads and then waits; the watch has started the run by then.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!events().contains("started run") && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    runner.stop(StopReason.INTERRUPTED);
    RunResult result = run.get(60, TimeUnit.SECONDS);

    assertThat(events()).containsExactly("started run", "close");
    JsonNode watch = JSON.readTree(result.folder().resolve("run.json").toFile()).get("testWatch");
    assertThat(watch.at("/run/notRead").asText()).isEqualTo("the phase was cut off");
  }
}
