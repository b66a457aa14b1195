package org.geoshard.harness.ramp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.binding.NoopDB;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.run.RunResult;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.Runner;
import org.geoshard.harness.run.StopReason;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.workloads.CoreWorkload;

class RampRunTest {
  @TempDir
  Path dir;

  /** Test helper: every read sleeps 4 ms per live client thread, so latency grows with concurrency. */
  public static class CrowdedDB extends NoopDB {
    static final Map<String, AtomicInteger> LIVE = new ConcurrentHashMap<>();

    private AtomicInteger live() {
      return LIVE.computeIfAbsent(getProperties().getProperty("test.group"), k -> new AtomicInteger());
    }

    @Override
    public void init() {
      live().incrementAndGet();
    }

    @Override
    public void cleanup() {
      live().decrementAndGet();
    }

    @Override
    public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
      try {
        Thread.sleep(4L * live().get());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return Status.OK;
    }

  }

  /** Test helper: fast, but every 200th read of the run takes 60 ms. */
  public static final class StallingDB extends CrowdedDB {
    static final AtomicLong READS = new AtomicLong();

    @Override
    public void init() {
    }

    @Override
    public void cleanup() {
    }

    @Override
    public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
      if (READS.incrementAndGet() % 200 == 0) {
        try {
          Thread.sleep(60);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return Status.OK;
    }
  }

  private Properties props(String... pairs) {
    Properties p = new Properties();
    p.setProperty("workload", CoreWorkload.class.getName());
    p.setProperty("recordcount", "1000");
    p.setProperty("readproportion", "1");
    p.setProperty("updateproportion", "0");
    p.setProperty("status.interval", "0");
    p.setProperty("stats.warmup", "0");
    p.setProperty("results.dir", dir.resolve("run").toString());
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return p;
  }

  private static Runner runner(Properties p, Class<? extends DB> db) throws Exception {
    return new Runner(RunSettings.fromProperties(Phase.RUN, p, "ramp"), p, new Binding("test", db), Path.of("unused"));
  }

  @Test
  void theRampStopsAtTheStepThatBreaksTheRule() throws Exception {
    // 2 threads: 8 ms; 4 threads: 16 ms; 6 threads: 24 ms > 20 ms.
    RunResult result = runner(props("ramp.mode", "threads", "ramp.start", "2", "ramp.step", "2", "ramp.interval", "2",
        "ramp.maxthreads", "20", "sla.latency.ms", "20", "test.group", "sla"), CrowdedDB.class).execute();

    assertThat(result.stopReason()).isEqualTo(StopReason.SLA);
    RampResult ramp = result.ramp();
    assertThat(ramp.steps()).extracting(StepRecord::threads).startsWith(2, 4, 6);
    assertThat(ramp.steps()).extracting(StepRecord::verdict).startsWith(Verdict.PASS, Verdict.PASS, Verdict.SLA);
    assertThat(ramp.peakThreads()).isEqualTo(4);
    assertThat(ramp.peakStep()).isEqualTo(2);
    // 4 threads at about 16 ms each: about 250 reads per second.
    assertThat(ramp.maxSustainedThroughput()).isBetween(180.0, 260.0);
    assertThat(ramp.steps().get(2).p98Us()).isGreaterThan(20_000);
    assertThat(result.hasFailures()).isFalse();

    JsonNode summary = new ObjectMapper().readTree(result.folder().resolve("summary.json").toFile());
    assertThat(summary.get("stopReason").asText()).isEqualTo("sla");
    assertThat(summary.get("maxSustainedThroughput").asDouble()).isEqualTo(ramp.maxSustainedThroughput(), within(0.01));
    assertThat(summary.get("peakThreads").asInt()).isEqualTo(4);
    assertThat(summary.at("/ramp/mode").asText()).isEqualTo("threads");
    assertThat(summary.at("/ramp/sla/latencyMs").asInt()).isEqualTo(20);
    assertThat(summary.at("/ramp/steps/2/verdict").asText()).isEqualTo("sla");
    assertThat(summary.at("/ramp/steps/1/startSecond").asLong()).isEqualTo(3);
    assertThat(summary.at("/ramp/steps/1/endSecond").asLong()).isEqualTo(4);
    assertThat(summary.at("/plateau/fromSecond").asLong()).isEqualTo(3);
    assertThat(summary.at("/plateau/seconds").asInt()).isEqualTo(2);
  }

  @Test
  void aTimeoutStopsTheRamp() throws Exception {
    RunResult result = runner(props("ramp.mode", "threads", "ramp.start", "2", "ramp.interval", "2",
        "sla.latency.ms", "20", "sla.timeout.ms", "40"), StallingDB.class).execute();
    assertThat(result.stopReason()).isEqualTo(StopReason.TIMEOUT);
    assertThat(result.ramp().steps().get(0).verdict()).isEqualTo(Verdict.TIMEOUT);
    assertThat(result.ramp().steps().get(0).timeouts()).isPositive();
    assertThat(result.ramp().maxSustainedThroughput()).isNull();
    assertThat(result.plateau()).isNull();
  }

  @Test
  void theRampEndsAtMaxThreadsWhenEveryStepPasses() throws Exception {
    RunResult result = runner(props("ramp.mode", "threads", "ramp.start", "1", "ramp.step", "1", "ramp.interval", "1",
        "ramp.maxthreads", "2", "target", "0"), NoopDB.class).execute();
    assertThat(result.stopReason()).isEqualTo(StopReason.MAXTHREADS);
    assertThat(result.ramp().steps()).extracting(StepRecord::threads).containsExactly(1, 2);
    assertThat(result.ramp().steps()).extracting(StepRecord::verdict).containsOnly(Verdict.PASS);
    assertThat(result.threads()).isEqualTo(2);
  }

  @Test
  void aStopKeepsEveryFinishedStep() throws Exception {
    // Steps of 2 s, stopped 1.3 s into the second step: one judged step, one partial.
    Runner runner = runner(props("ramp.mode", "threads", "ramp.start", "1", "ramp.step", "1", "ramp.interval", "2",
        "ramp.maxthreads", "1000"), NoopDB.class);
    CompletableFuture<RunResult> future = CompletableFuture.supplyAsync(() -> {
      try {
        return runner.execute();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    Thread.sleep(3300);
    runner.stop(StopReason.INTERRUPTED);
    RunResult result = future.get(60, TimeUnit.SECONDS);
    assertThat(result.stopReason()).isEqualTo(StopReason.INTERRUPTED);
    assertThat(result.ramp().steps().size()).isGreaterThanOrEqualTo(2);
    StepRecord last = result.ramp().steps().get(result.ramp().steps().size() - 1);
    assertThat(last.verdict()).isEqualTo(Verdict.PARTIAL);
    assertThat(result.ramp().steps().subList(0, result.ramp().steps().size() - 1))
        .extracting(StepRecord::verdict).containsOnly(Verdict.PASS);
    assertThat(result.ramp().maxSustainedThroughput()).isPositive();
  }

  @Test
  void anOpenLoopRampRaisesTheOfferedRate() throws Exception {
    RunResult result = runner(props("ramp.mode", "rate", "ramp.rate.start", "200", "ramp.rate.step", "200",
        "ramp.rate.max", "600", "ramp.rate.threads", "4", "ramp.interval", "2"), NoopDB.class).execute();
    assertThat(result.stopReason()).isEqualTo(StopReason.MAXTHREADS);
    assertThat(result.ramp().steps()).extracting(StepRecord::offeredOpsPerSec).containsExactly(200.0, 400.0, 600.0);
    for (StepRecord step : result.ramp().steps()) {
      assertThat(step.throughput()).as("step %d", step.step()).isCloseTo(step.offeredOpsPerSec(), within(step.offeredOpsPerSec() * 0.15));
    }
    assertThat(result.threads()).isEqualTo(4);
  }

  @Test
  void aFixedRunHasPlateauStatistics() throws Exception {
    RunResult result = runner(props("operationcount", "0", "maxexecutiontime", "3", "threadcount", "2", "target", "500",
        "stats.warmup", "1"), NoopDB.class).execute();
    assertThat(result.ramp()).isNull();
    assertThat(result.plateau().fromSecond()).isEqualTo(2);
    assertThat(result.plateau().seconds()).isBetween(1, 2);
    assertThat(result.plateau().meanOpsPerSec()).isCloseTo(500, within(50.0));
  }
}
