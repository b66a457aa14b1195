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
import java.util.concurrent.locks.LockSupport;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.binding.NoopDB;
import org.geoshard.harness.measure.StopReason;
import org.geoshard.harness.output.RunResult;
import org.geoshard.harness.run.AwaitSecond;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.Runner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.workloads.CoreWorkload;

class RampRunTest {
  @TempDir
  Path dir;

  /**
   * Test helper: a database that is fast (1 ms a read) up to 4 live client threads and slow (150 ms)
   * beyond. The steps the tests expect to pass are far inside the rule (50 ms) and the one expected
   * to break it is far outside, so a busy machine (sleeps overshoot, never undershoot) cannot move the
   * verdicts: the former 4 ms per thread put the passing 4-thread step at 16 ms against a 20 ms rule.
   */
  public static class CrowdedDB extends NoopDB {
    static final int FAST_UP_TO = 4;

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
        Thread.sleep(live().get() <= FAST_UP_TO ? 1 : 150);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return Status.OK;
    }

  }

  /** Test helper: fast, but every 200th read of the run takes 300 ms (the timeout is 100 ms). */
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
          Thread.sleep(300);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return Status.OK;
    }
  }

  /** Test helper: every tenth read fails at once (as a refused connection does); the others take 1 ms. */
  public static final class SometimesFailingDB extends NoopDB {
    private long reads;

    @Override
    public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
      if (++reads % 10 == 0) {
        return Status.ERROR;
      }
      LockSupport.parkNanos(1_000_000);
      return Status.OK;
    }
  }

  /** Every read fails at once: a server that answers every request with an error. */
  public static final class AlwaysFailingDB extends NoopDB {
    @Override
    public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
      LockSupport.parkNanos(200_000);
      return Status.ERROR;
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
    // 2 and 4 threads: 1 ms a read; 6 threads: 150 ms > 50 ms.
    RunResult result = runner(props("ramp.mode", "threads", "ramp.start", "2", "ramp.step", "2", "ramp.interval", "2",
        "ramp.maxthreads", "20", "sla.latency.ms", "50", "test.group", "sla"), CrowdedDB.class).execute();

    assertThat(result.stopReason()).isEqualTo(StopReason.SLA);
    RampResult ramp = result.ramp();
    assertThat(ramp.steps()).extracting(StepRecord::threads).containsExactly(2, 4, 6);
    assertThat(ramp.steps()).extracting(StepRecord::verdict).containsExactly(Verdict.PASS, Verdict.PASS, Verdict.SLA);
    // The peak is the faster of the two passing steps. Which one that is depends on the scheduler (on a busy
    // machine 2 threads can out-run 4 at 1 ms a read), so it is read, not assumed; RampResultTest pins the choice.
    StepRecord peak = ramp.steps().get(0).throughput() > ramp.steps().get(1).throughput()
        ? ramp.steps().get(0) : ramp.steps().get(1);
    assertThat(ramp.peakStep()).isEqualTo(peak.step());
    assertThat(ramp.peakThreads()).isEqualTo(peak.threads());
    assertThat(ramp.maxSustainedThroughput()).isEqualTo(peak.throughput());
    // Both passing steps (1 ms a read) run far faster than the failing one (150 ms a read).
    assertThat(ramp.maxSustainedThroughput()).isGreaterThan(ramp.steps().get(2).throughput());
    assertThat(ramp.steps().get(2).p98Us()).isGreaterThan(50_000);
    assertThat(result.hasFailures()).isFalse();

    JsonNode summary = new ObjectMapper().readTree(result.folder().resolve("summary.json").toFile());
    assertThat(summary.get("stopReason").asText()).isEqualTo("sla");
    assertThat(summary.get("maxSustainedThroughput").asDouble()).isEqualTo(ramp.maxSustainedThroughput(), within(0.01));
    assertThat(summary.get("peakThreads").asInt()).isEqualTo(peak.threads());
    assertThat(summary.at("/ramp/mode").asText()).isEqualTo("threads");
    assertThat(summary.at("/ramp/sla/latencyMs").asInt()).isEqualTo(50);
    assertThat(summary.at("/ramp/steps/2/verdict").asText()).isEqualTo("sla");
    assertThat(summary.at("/ramp/steps/1/startSecond").asLong()).isEqualTo(3);
    assertThat(summary.at("/ramp/steps/1/endSecond").asLong()).isEqualTo(4);
    assertThat(summary.at("/plateau/fromSecond").asLong()).isEqualTo(peak.step() == 2 ? 3 : 1);
    assertThat(summary.at("/plateau/seconds").asInt()).isEqualTo(2);
  }

  @Test
  void aTimeoutStopsTheRamp() throws Exception {
    RunResult result = runner(props("ramp.mode", "threads", "ramp.start", "2", "ramp.interval", "2",
        "sla.latency.ms", "100", "sla.timeout.ms", "100"), StallingDB.class).execute();
    assertThat(result.stopReason()).isEqualTo(StopReason.TIMEOUT);
    assertThat(result.ramp().steps().get(0).verdict()).isEqualTo(Verdict.TIMEOUT);
    assertThat(result.ramp().steps().get(0).timeouts()).isPositive();
    assertThat(result.ramp().maxSustainedThroughput()).isNull();
    assertThat(result.plateau()).isNull();
  }

  @Test
  void theRampEndsAtMaxThreadsWhenEveryStepPasses() throws Exception {
    // A rule no answer of a no-op binding can break, even on a busy machine.
    RunResult result = runner(props("ramp.mode", "threads", "ramp.start", "1", "ramp.step", "1", "ramp.interval", "1",
        "ramp.maxthreads", "2", "target", "0", "sla.latency.ms", "5000"), NoopDB.class).execute();
    assertThat(result.stopReason()).isEqualTo(StopReason.MAXTHREADS);
    assertThat(result.ramp().steps()).extracting(StepRecord::threads).containsExactly(1, 2);
    assertThat(result.ramp().steps()).extracting(StepRecord::verdict).containsOnly(Verdict.PASS);
    assertThat(result.threads()).isEqualTo(2);
  }

  @Test
  void aStopKeepsEveryFinishedStep() throws Exception {
    // Steps of 4 s, stopped once the second step's first second is written (about 1 s into the step,
    // 3 s before its end): at least one judged step, and a partial one. Waiting for the file rather
    // than a fixed sleep keeps a slow start from leaving the run still in its first step.
    Runner runner = runner(props("ramp.mode", "threads", "ramp.start", "1", "ramp.step", "1", "ramp.interval", "4",
        "ramp.maxthreads", "1000", "sla.latency.ms", "5000"), NoopDB.class);
    CompletableFuture<RunResult> future = CompletableFuture.supplyAsync(() -> {
      try {
        return runner.execute();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    AwaitSecond.in(dir.resolve("run"), 5, future);
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
        "ramp.rate.max", "600", "ramp.rate.threads", "4", "ramp.interval", "2", "sla.latency.ms", "5000"),
        NoopDB.class).execute();
    assertThat(result.stopReason()).isEqualTo(StopReason.MAXTHREADS);
    assertThat(result.ramp().steps()).extracting(StepRecord::offeredOpsPerSec).containsExactly(200.0, 400.0, 600.0);
    // The schedule is fixed, so each step catches up; the margin covers a window edge moved by a busy
    // machine (several times what is seen on an idle one, 1-2%).
    for (StepRecord step : result.ramp().steps()) {
      assertThat(step.throughput()).as("step %d", step.step()).isCloseTo(step.offeredOpsPerSec(), within(step.offeredOpsPerSec() * 0.35));
    }
    assertThat(result.threads()).isEqualTo(4);
  }

  @Test
  void aFixedRunHasPlateauStatistics() throws Exception {
    RunResult result = runner(props("operationcount", "0", "maxexecutiontime", "3", "threadcount", "2", "target", "500",
        "stats.warmup", "1"), NoopDB.class).execute();
    assertThat(result.ramp()).isNull();
    assertThat(result.plateau().fromSecond()).isEqualTo(2);
    // A busy machine notices the time limit late and runs a second or two more: full seconds after the
    // warm-up, at least one and never more than the run lasted.
    assertThat(result.plateau().seconds()).isBetween(1, (int) (result.runtimeMs() / 1000));
    assertThat(result.plateau().meanOpsPerSec()).isCloseTo(500, within(200.0));
  }

  @Test
  void aThreadRampWhoseOperationsFailedHasFailures() throws Exception {
    // The first error ends the search (sla.maxerrors=0): the answer stands, and the command still exits 1.
    RunResult result = runner(props("ramp.mode", "threads", "ramp.start", "1", "ramp.interval", "2",
        "ramp.maxthreads", "2", "sla.latency.ms", "5000"), SometimesFailingDB.class).execute();
    assertThat(result.stopReason()).isEqualTo(StopReason.ERRORS);
    assertThat(result.errors()).isPositive();
    assertThat(result.hasFailures()).as("so the command exits 1").isTrue();
  }

  @Test
  void aRateRampWithErrorsWithinItsAllowanceStillHasFailures() throws Exception {
    // Errors allowed per step let the search go on; failed operations still make the phase exit 1.
    RunResult result = runner(props("ramp.mode", "rate", "ramp.rate.start", "50", "ramp.rate.step", "50",
        "ramp.rate.max", "100", "ramp.rate.threads", "2", "ramp.interval", "2", "sla.latency.ms", "5000",
        "sla.maxerrors", "1000000"), SometimesFailingDB.class).execute();
    assertThat(result.stopReason()).isNotEqualTo(StopReason.ERRORS);
    assertThat(result.errors()).isPositive();
    assertThat(result.hasFailures()).as("so the command exits 1").isTrue();
  }

  @Test
  void aRampInWhichNothingSucceedsStopsAtItsFirstStepWhateverTheErrorsAllowed() throws Exception {
    // Before: every step read "0 ops/s ... pass" and the peak was 0.0 at step 1.
    RunResult result = runner(props("ramp.mode", "threads", "ramp.start", "1", "ramp.step", "1", "ramp.interval", "2",
        "ramp.maxthreads", "3", "sla.latency.ms", "5000", "sla.maxerrors", "100000000"), AlwaysFailingDB.class).execute();
    assertThat(result.stopReason()).isEqualTo(StopReason.NOTHING);
    assertThat(result.ramp().steps().get(0).verdict()).isEqualTo(Verdict.NOTHING);
    assertThat(result.ramp().steps()).hasSize(1);
    assertThat(result.ramp().maxSustainedThroughput()).isNull();
    assertThat(result.ramp().peakStep()).isNull();
    JsonNode summary = new ObjectMapper().readTree(result.folder().resolve("summary.json").toFile());
    assertThat(summary.get("maxSustainedThroughput").isNull()).isTrue();
    assertThat(summary.get("peakStep").isNull()).isTrue();
    assertThat(summary.get("stopReason").asText()).isEqualTo("nothing");
  }
}
