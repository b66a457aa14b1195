package org.geoshard.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.measure.StopReason;
import org.geoshard.harness.output.RunResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.DB;

/**
 * A phase cut off by Ctrl-C, SIGTERM or the give-up watch ends at once, however long its operations
 * wait on the server; a phase that ends at its time still waits for the operations in flight.
 */
class CutOffStopTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** The old grace was 30 s; any bound well below it proves the short one, and leaves a busy machine room. */
  private static final long WELL_BELOW_THE_FULL_GRACE_MS = 15_000;

  @TempDir
  Path dir;
  private final String stall = UUID.randomUUID().toString();

  @AfterEach
  void releaseTheStalledThreads() {
    TestBindings.stall(stall).countDown();
  }

  private Properties reads(String... pairs) {
    Properties p = RunnerTest.workloada("operationcount", "0", "threadcount", "4", "readproportion", "1",
        "updateproportion", "0", "test.stall", stall, "results.dir", dir.resolve("run").toString());
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return p;
  }

  private Runner runner(Properties p, Class<? extends DB> db) throws Exception {
    return new Runner(RunSettings.fromProperties(Phase.RUN, p, "test"), p, new Binding("test", db), dir);
  }

  @Test
  void anInterruptWhileEveryThreadWaitsOnAStalledServerEndsThePhaseWithoutTheFullGrace() throws Exception {
    Runner runner = runner(reads("maxexecutiontime", "600", "giveup.s", "0"), TestBindings.StalledDB.class);
    CompletableFuture<RunResult> run = CompletableFuture.supplyAsync(() -> {
      try {
        return runner.execute();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    Thread.sleep(1500);  // every thread has done its 10 reads and waits in the 11th
    long stopped = System.nanoTime();
    runner.stop(StopReason.INTERRUPTED);
    RunResult result = run.get(60, TimeUnit.SECONDS);
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopped);

    assertThat(ms).as("ms from the interrupt to a complete folder").isLessThan(WELL_BELOW_THE_FULL_GRACE_MS);
    assertThat(result.stopReason()).isEqualTo(StopReason.INTERRUPTED);
    assertThat(result.perOperation().get("READ").errors()).as("the 4 unanswered reads").isEqualTo(4);
    assertThat(result.perOperation().get("READ").count()).isEqualTo(44);
    JsonNode record = JSON.readTree(result.folder().resolve("run.json").toFile());
    assertThat(record.get("stopReason").asText()).isEqualTo("interrupted");
    assertThat(record.get("status").asText()).isEqualTo("finished with threads still inside an operation");
    assertThat(JSON.readTree(result.folder().resolve("summary.json").toFile()).at("/errors").asLong()).isEqualTo(4);
  }

  @Test
  void aGiveUpOnAStalledServerEndsThePhaseWithoutTheFullGrace() throws Exception {
    long start = System.nanoTime();
    RunResult result = runner(reads("maxexecutiontime", "600", "giveup.s", "2"), TestBindings.StalledDB.class)
        .execute();
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

    assertThat(result.stopReason()).isEqualTo(StopReason.GIVEUP);
    assertThat(ms).as("ms to the end: 2 s without a success, then the short grace")
        .isBetween(2000L, 2000 + WELL_BELOW_THE_FULL_GRACE_MS);
    assertThat(result.perOperation().get("READ").errors()).isEqualTo(4);
    assertThat(result.hasFailures()).as("so the command exits 1").isTrue();
  }

  @Test
  void aPhaseEndingAtItsTimeWaitsForItsOperationsInFlight() throws Exception {
    // Each read takes 1.5 s, three times the cut-off grace: only the full grace lets them finish.
    RunResult result = runner(reads("maxexecutiontime", "1", "test.read.ms", "1500"), TestBindings.SlowDB.class)
        .execute();

    assertThat(result.stopReason()).isEqualTo(StopReason.TIME);
    assertThat(result.errors()).as("every read in flight at the stop finished").isZero();
    assertThat(result.perOperation().get("READ").count()).isEqualTo(4);
    JsonNode record = JSON.readTree(result.folder().resolve("run.json").toFile());
    assertThat(record.get("status").asText()).isEqualTo("finished");
  }
}
