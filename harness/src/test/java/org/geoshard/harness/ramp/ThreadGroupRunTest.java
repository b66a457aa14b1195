package org.geoshard.harness.ramp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Properties;
import org.geoshard.harness.api.HarnessDB;
import org.geoshard.harness.api.Outcome;
import org.geoshard.harness.api.ThreadGroups;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.binding.NoopDB;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.measure.StopReason;
import org.geoshard.harness.output.RunResult;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.Runner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.Workload;

class ThreadGroupRunTest {
  @TempDir
  Path dir;

  /** Test helper: main threads read; a paced group of two writers inserts, every 10th one "stale". */
  public static final class ReadersAndWriters extends Workload implements ThreadGroups {
    private int mainThreads;
    private List<Double> rates;
    private long stepSeconds;

    @Override
    public void init(Properties p) {
      mainThreads = Integer.parseInt(p.getProperty("threadcount", "1"));
      rates = Arrays.stream(p.getProperty("test.rates").split(",")).map(Double::valueOf).toList();
      stepSeconds = Long.parseLong(p.getProperty("test.step", "1"));
    }

    @Override
    public List<ThreadGroup> threadGroups() {
      return List.of(new ThreadGroup("writers", 2, rates, Duration.ofSeconds(stepSeconds)));
    }

    @Override
    public Object initThread(Properties p, int threadId, int threadCount) {
      return new long[] {threadId >= mainThreads ? 1 : 0, 0};
    }

    @Override
    public boolean doInsert(DB db, Object state) {
      return false;
    }

    @Override
    public boolean doTransaction(DB db, Object state) {
      long[] s = (long[]) state;
      if (s[0] == 1) {
        long n = ++s[1];
        HarnessDB.from(db).measure(() -> n % 10 == 0 ? new Status("STALE", "older") : Status.OK,
            status -> status.getName().equals("STALE") ? new Outcome("WRITE_STALE", true) : new Outcome("WRITE", status.isOk()));
        return true;
      }
      try {
        Thread.sleep(2);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return db.read("t", "k", null, new HashMap<>()).isOk();
    }
  }

  private RunResult run(String... pairs) throws Exception {
    Properties p = new Properties();
    p.setProperty("workload", ReadersAndWriters.class.getName());
    p.setProperty("status.interval", "0");
    p.setProperty("stats.warmup", "0");
    p.setProperty("results.dir", dir.resolve("run").toString());
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return new Runner(RunSettings.fromProperties(Phase.RUN, p, "groups"), p, new Binding("noop", NoopDB.class), dir)
        .execute();
  }

  @Test
  void aPacedGroupRunsBesideTheClosedLoopThreads() throws Exception {
    RunResult result = run("test.rates", "300", "threadcount", "2", "operationcount", "0", "maxexecutiontime", "3");
    assertThat(result.stopReason()).isEqualTo(StopReason.TIME);
    long writes = result.perOperation().get("WRITE").count() + result.perOperation().get("WRITE_STALE").count();
    // Paced on a fixed schedule; the margin (40%) is several times what an idle machine shows.
    assertThat(writes / (result.runtimeMs() / 1000.0)).isCloseTo(300, within(120.0));
    assertThat(result.perOperation().get("WRITE_STALE").count()).isCloseTo(writes / 10, within(3L));
    assertThat(result.perOperation().get("WRITE_STALE").errors()).isZero();
    assertThat(result.perOperation().get("READ").count()).isPositive();
    assertThat(result.threads()).isEqualTo(4);
    assertThat(result.sweep()).isNull();
  }

  @Test
  void aSweepWalksTheGroupsRatesAndMeasuresEveryStep() throws Exception {
    RunResult result = run("test.rates", "0,200,400", "test.step", "2", "threadcount", "1", "operationcount", "0",
        "maxexecutiontime", "60");
    assertThat(result.stopReason()).isEqualTo(StopReason.COMPLETED);
    List<StepRecord> steps = result.sweep().steps().steps();
    assertThat(steps).extracting(StepRecord::offeredOpsPerSec).containsExactly(0.0, 200.0, 400.0);
    assertThat(steps.get(0).throughput("WRITE")).isZero();
    // Margins of 40%: several times what an idle machine shows, and the steps still cannot be confused.
    assertThat(steps.get(1).throughput("WRITE") + steps.get(1).throughput("WRITE_STALE")).isCloseTo(200, within(80.0));
    assertThat(steps.get(2).throughput("WRITE") + steps.get(2).throughput("WRITE_STALE")).isCloseTo(400, within(160.0));
    assertThat(steps).allSatisfy(step -> assertThat(step.throughput("READ")).isPositive());
    JsonNode summary = new ObjectMapper().readTree(result.folder().resolve("summary.json").toFile());
    assertThat(summary.at("/sweep/group").asText()).isEqualTo("writers");
    assertThat(summary.at("/sweep/steps/2/offeredOpsPerSec").asDouble()).isEqualTo(400);
    assertThat(summary.at("/sweep/steps/2/perOperation/WRITE/throughput").asDouble()).isPositive();
    assertThat(summary.has("ramp")).isFalse();
    JsonNode record = new ObjectMapper().readTree(result.folder().resolve("run.json").toFile());
    assertThat(record.at("/threadGroups/0/name").asText()).isEqualTo("writers");
  }

  @Test
  void aSweepAndARampCannotRunTogether() {
    assertThatThrownBy(() -> run("test.rates", "0,100", "ramp.mode", "threads"))
        .isInstanceOf(ConfigException.class).hasMessageContaining("cannot run together");
  }
}
