package org.geoshard.harness.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.geoshard.harness.measure.StopReason;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Properties;
import java.util.UUID;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.observe.StageListeners;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.workloads.CoreWorkload;

class PhasePreparationTest {
  private static final Binding PREPARED = new Binding("prepared", PreparationTest.PreparedDB.class);

  @TempDir
  Path dir;

  private final StopSignal stop = new StopSignal();
  private final String log = UUID.randomUUID().toString();
  private RunRecorder recorder;

  private PhasePreparation preparation(Phase phase, String... pairs) throws Exception {
    Properties p = new Properties();
    p.setProperty("workload", CoreWorkload.class.getName());
    p.setProperty("recordcount", "10");
    p.setProperty("operationcount", "10");
    p.setProperty("test.log", log);
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    RunSettings settings = RunSettings.fromProperties(phase, p, "prep");
    PhasePlan plan = PhasePlan.of(settings, new TestBindings.CrashingWorkload(), PREPARED);
    recorder = RunRecorder.create(settings, dir, PREPARED, p, plan, Clock.systemUTC());
    return new PhasePreparation(plan, new BindingSession(PREPARED, p, recorder.record()), stop, recorder,
        new StageListeners());
  }

  private JsonNode runJson() throws Exception {
    return new ObjectMapper().readTree(recorder.path().resolve("run.json").toFile());
  }

  @Test
  void aLoadIsPreparedBeforeItsThreadsAndTheStepsAreWrittenAtOnce() throws Exception {
    preparation(Phase.LOAD).beforeThreads();
    assertThat(PreparationTest.PreparedDB.LOG.get(log)).containsExactly("BEFORE_LOAD: create");
    JsonNode json = runJson();
    assertThat(json.at("/preparation/0/step").asText()).isEqualTo("create table");
    assertThat(json.get("status").asText()).isEqualTo("running");
  }

  @Test
  void aFailedPreparationStopsThePhaseWithOneSentence() throws Exception {
    PhasePreparation preparation = preparation(Phase.LOAD, "test.failcreate", "true");
    assertThatThrownBy(preparation::beforeThreads).isInstanceOf(StartFailedException.class)
        .hasMessageStartingWith("Preparing the database failed: ").hasMessageContaining("permission denied");
    assertThat(runJson().get("status").asText()).isEqualTo("failed to prepare");
  }

  @Test
  void aStopBeforeTheStartPreparesNothing() throws Exception {
    PhasePreparation preparation = preparation(Phase.LOAD);
    stop.stop(StopReason.INTERRUPTED);
    assertThatThrownBy(preparation::beforeThreads).isInstanceOf(StartFailedException.class)
        .hasMessageStartingWith("Interrupted before the start");
    assertThat(PreparationTest.PreparedDB.LOG.get(log)).isNull();
    assertThat(runJson().get("status").asText()).isEqualTo("interrupted before the start");
  }

  @Test
  void aStopWhileThePreparationWaitsOnTheServerEndsTheWaitAtOnce() throws Exception {
    PhasePreparation preparation = preparation(Phase.LOAD, "test.hang", "true");
    Thread stopper = new Thread(() -> {
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      stop.stop(StopReason.INTERRUPTED);
    });
    long started = System.nanoTime();
    stopper.start();
    assertThatThrownBy(preparation::beforeThreads).hasMessageStartingWith("Interrupted before the start");
    assertThat((System.nanoTime() - started) / 1_000_000).as("not the ten minutes of the hung step").isLessThan(60_000);
    assertThat(Thread.currentThread().isInterrupted()).isFalse();
  }

  @Test
  void theAfterLoadPreparationRunsOnlyAfterALoadThatWasNotStopped() throws Exception {
    PhasePreparation load = preparation(Phase.LOAD);
    assertThat(load.afterThreads()).isNull();
    assertThat(PreparationTest.PreparedDB.LOG.get(log)).containsExactly("AFTER_LOAD: create", "AFTER_LOAD: index");

    PhasePreparation run = preparation(Phase.RUN, "results.dir", dir.resolve("run").toString());
    assertThat(run.afterThreads()).isNull();
    stop.stop(StopReason.TIME);
    PhasePreparation stopped = preparation(Phase.LOAD, "results.dir", dir.resolve("stopped").toString());
    assertThat(stopped.afterThreads()).isNull();
    assertThat(PreparationTest.PreparedDB.LOG.get(log)).as("neither ran it").hasSize(2);
  }

  @Test
  void aFailedPreparationAfterTheLoadIsSaidInOneSentence() throws Exception {
    String failure = preparation(Phase.LOAD, "test.failindex", "true").afterThreads();
    assertThat(failure).isEqualTo("Preparing the database after the load failed: step 'build index' failed:"
        + " index build failed: out of disk");
  }
}
