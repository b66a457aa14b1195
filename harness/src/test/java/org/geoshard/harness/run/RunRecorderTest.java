package org.geoshard.harness.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.geoshard.harness.measure.StopReason;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.binding.NoopDB;
import org.geoshard.harness.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.DBException;
import site.ycsb.workloads.CoreWorkload;

class RunRecorderTest {
  private static final Instant CREATED = Instant.parse("2026-03-01T10:15:30Z");
  private static final Clock CLOCK = Clock.fixed(CREATED, ZoneOffset.UTC);
  private static final Binding NOOP = new Binding("noop", NoopDB.class);

  @TempDir
  Path dir;

  private final Properties properties = new Properties();

  private RunRecorder recorder(String... pairs) throws Exception {
    properties.setProperty("workload", CoreWorkload.class.getName());
    properties.setProperty("recordcount", "500");
    properties.setProperty("threadcount", "3");
    properties.setProperty("seed", "42");
    for (int i = 0; i < pairs.length; i += 2) {
      properties.setProperty(pairs[i], pairs[i + 1]);
    }
    RunSettings settings = RunSettings.fromProperties(Phase.LOAD, properties, "rec");
    PhasePlan plan = PhasePlan.of(settings, new TestBindings.CrashingWorkload(), NOOP);
    return RunRecorder.create(settings, dir, NOOP, properties, plan, CLOCK);
  }

  private static JsonNode runJson(RunRecorder recorder) throws IOException {
    return new ObjectMapper().readTree(recorder.path().resolve("run.json").toFile());
  }

  @Test
  void theFolderIsNamedAndRecordedAsThePhaseIsCreated() throws Exception {
    RunRecorder recorder = recorder();
    assertThat(recorder.path().getParent()).isEqualTo(dir);
    assertThat(recorder.path().getFileName().toString()).as("stamped by the injected clock")
        .isEqualTo("20260301T101530Z-load-noop-rec");
    JsonNode json = runJson(recorder);
    assertThat(json.get("status").asText()).isEqualTo("running");
    assertThat(json.get("createdTime").asText()).isEqualTo(CREATED.toString());
    assertThat(json.get("threads").asInt()).isEqualTo(3);
    assertThat(json.get("plannedOperations").asLong()).isEqualTo(500);
    assertThat(json.get("seed").asLong()).isEqualTo(42);
    assertThat(json.has("warmupSeconds")).isTrue();
    assertThat(json.has("startTime")).isFalse();
  }

  @Test
  void everyRunHasItsOwnIdFromTheStartEvenWithTheSameSeed() throws Exception {
    RunRecorder first = recorder("results.dir", dir.resolve("first").toString());
    RunRecorder second = recorder("results.dir", dir.resolve("second").toString());
    String id = runJson(first).path("runUuid").asText();
    assertThat(java.util.UUID.fromString(id).toString()).isEqualTo(id);
    assertThat(runJson(second).path("runUuid").asText()).isNotEmpty().isNotEqualTo(id);
    // Kept through the end: the one writer writes it once and never changes it.
    first.finished(org.geoshard.harness.measure.StopReason.COMPLETED, 0, 1000, true, null);
    assertThat(runJson(first).path("runUuid").asText()).isEqualTo(id);
  }

  @Test
  void aFolderThatHoldsARunIsNotOverwritten() throws Exception {
    recorder("results.dir", dir.resolve("one").toString());
    assertThatThrownBy(() -> recorder("results.dir", dir.resolve("one").toString()))
        .isInstanceOf(ConfigException.class);
  }

  @Test
  void aFailureBeforeTheStartIsOneMaskedSentenceAndTheExceptionSaysIt() throws Exception {
    RunRecorder recorder = recorder();
    StartFailedException thrown = recorder.failedToStart("failed to prepare", "Preparing the database failed",
        new DBException("no answer from mongodb://bench:hunter2@db1:27017"));
    assertThat(thrown).hasMessageStartingWith("Preparing the database failed: no answer from");
    JsonNode json = runJson(recorder);
    assertThat(json.get("status").asText()).isEqualTo("failed to prepare");
    assertThat(json.get("stopReason").asText()).isEqualTo("failed");
    assertThat(json.get("failure").asText()).startsWith("Preparing the database failed: no answer from mongodb://bench:")
        .doesNotContain("hunter2");
  }

  @Test
  void aStopBeforeTheStartSaysSoAndPointsAtTheRecord() throws Exception {
    RunRecorder recorder = recorder();
    StartFailedException thrown = recorder.interruptedBeforeStart();
    assertThat(thrown.getMessage()).contains("nothing was measured").contains(recorder.path().resolve("run.json").toString());
    JsonNode json = runJson(recorder);
    assertThat(json.get("status").asText()).isEqualTo("interrupted before the start");
    assertThat(json.get("stopReason").asText()).isEqualTo("interrupted");
  }

  @Test
  void theEndIsWrittenOnceWithItsTimesCostsAndHowTheThreadsEnded() throws Exception {
    RunRecorder recorder = recorder();
    long start = CREATED.toEpochMilli() + 1_000;
    recorder.started(start);
    assertThat(runJson(recorder).has("startTime")).as("kept for the end").isFalse();
    recorder.topologySkipped(StopReason.INTERRUPTED);
    recorder.measuringCost(new long[] {12, 3_000, 9_000}, Map.of("READ", Map.of("explained", 2)));
    recorder.finished(StopReason.INTERRUPTED, start, 2_500, false, null);
    JsonNode json = runJson(recorder);
    assertThat(json.get("status").asText()).isEqualTo("finished with threads still inside an operation");
    assertThat(json.get("stopReason").asText()).isEqualTo("interrupted");
    assertThat(json.get("startTime").asText()).isEqualTo(Instant.ofEpochMilli(start).toString());
    assertThat(json.get("endTime").asText()).isEqualTo(Instant.ofEpochMilli(start + 2_500).toString());
    assertThat(json.get("runtimeMs").asLong()).isEqualTo(2_500);
    assertThat(json.at("/topology/recorded").asText()).isEqualTo("not after load (stopped: interrupted)");
    assertThat(json.at("/sampler/intervals").asLong()).isEqualTo(12);
    assertThat(json.at("/sampler/meanMicros").asLong()).isEqualTo(3);
    assertThat(json.at("/queryTargeting/READ/explained").asInt()).isEqualTo(2);
    try (Stream<Path> files = Files.list(recorder.path())) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("run.json");
    }
  }

  @Test
  void aFailedPreparationAfterTheLoadMakesTheRunFailed() throws Exception {
    RunRecorder recorder = recorder();
    recorder.finished(StopReason.COMPLETED, CREATED.toEpochMilli(), 10, true, "Preparing the database after the load"
        + " failed: index");
    JsonNode json = runJson(recorder);
    assertThat(json.get("status").asText()).isEqualTo("failed");
    assertThat(json.get("failure").asText()).endsWith("failed: index");
    assertThat(json.get("stopReason").asText()).isEqualTo("completed");
  }

  @Test
  void aCleanEndIsFinishedAndTheGroupsAreRecorded() throws Exception {
    RunRecorder recorder = recorder();
    recorder.finished(StopReason.TIME, CREATED.toEpochMilli(), 10, true, null);
    JsonNode json = runJson(recorder);
    assertThat(json.get("status").asText()).isEqualTo("finished");
    assertThat(json.has("failure")).isFalse();
    assertThat(json.has("threadGroups")).as("a load has none").isFalse();
  }

  @Test
  void theThreadGroupsOfARunGoIntoTheRecord() throws Exception {
    properties.setProperty("workload", CoreWorkload.class.getName());
    properties.setProperty("operationcount", "10");
    RunSettings settings = RunSettings.fromProperties(Phase.RUN, properties, "rec");
    PhasePlan plan = PhasePlan.of(settings, new PhasePlanTest.Grouped(new org.geoshard.harness.api.ThreadGroups.ThreadGroup(
        "writers", 2, java.util.List.of(50.0, 100.0), java.time.Duration.ofSeconds(20))), NOOP);
    RunRecorder recorder = RunRecorder.create(settings, dir, NOOP, properties, plan, CLOCK);
    recorder.threadGroups(plan);
    recorder.finished(StopReason.COMPLETED, CREATED.toEpochMilli(), 10, true, null);
    JsonNode group = runJson(recorder).at("/threadGroups/0");
    assertThat(group.get("name").asText()).isEqualTo("writers");
    assertThat(group.get("threads").asInt()).isEqualTo(2);
    assertThat(group.get("stepSeconds").asLong()).isEqualTo(20);
    assertThat(group.get("rates").size()).isEqualTo(2);
  }
}
