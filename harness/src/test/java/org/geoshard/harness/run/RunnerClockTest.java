package org.geoshard.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import org.geoshard.harness.output.RunResult;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Properties;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.binding.NoopDB;
import org.geoshard.harness.measure.Meters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runner keeps no clock of its own: the phase's time and the run folder's dates are the injected ones. */
class RunnerClockTest {
  @TempDir
  Path dir;

  @Test
  void thePhasesTimeAndTheRecordsDatesComeFromTheInjectedClocks() throws Exception {
    Properties p = RunnerTest.workloada("operationcount", "500", "threadcount", "2");
    Instant created = Instant.parse("2026-02-03T04:05:06Z");
    ManualTicker frozen = new ManualTicker(42_000_000_000L);
    RunResult result = new Runner(RunSettings.fromProperties(Phase.RUN, p, "clock"), p,
        new Binding("noop", NoopDB.class), dir, new Meters(1), frozen, Clock.fixed(created, ZoneOffset.UTC)).execute();
    assertThat(result.operations()).isEqualTo(500);
    assertThat(result.runtimeMs()).as("no time passed on a clock that stands still (at least 1 ms)").isEqualTo(1);
    assertThat(result.folder().getFileName().toString()).startsWith("20260203T040506Z-run-noop-clock");
    JsonNode runJson = new ObjectMapper().readTree(result.folder().resolve("run.json").toFile());
    assertThat(runJson.get("createdTime").asText()).isEqualTo(created.toString());
    assertThat(runJson.get("runtimeMs").asLong()).isEqualTo(1);
    assertThat(runJson.get("status").asText()).isEqualTo("finished");
  }
}
