package org.geoshard.harness.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.geoshard.harness.measure.LatencyStats;
import org.geoshard.harness.measure.OperationMeter;
import org.geoshard.harness.measure.StopReason;
import org.geoshard.harness.output.RunFolder;
import org.geoshard.harness.output.RunResult;
import org.geoshard.harness.run.Phase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The exit code of a phase that ran: a phase in which nothing succeeded is never a success. */
class PhaseOutcomeTest {
  @TempDir
  Path dir;

  private int exitCode(StopReason reason, long operations, long errors) throws Exception {
    Files.writeString(dir.resolve(RunFolder.SUMMARY_TXT), "[OVERALL], Operations, " + operations + "\n");
    LatencyStats none = LatencyStats.of(OperationMeter.newHistogram(), 0);
    RunResult result = new RunResult(dir, reason, 35_821, operations, errors, 0, 2, 0, none, Map.of(), null, null,
        null, null);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PhaseLauncher launcher = new PhaseLauncher(Phase.RUN, null, null, dir, new PrintStream(out, true, StandardCharsets.UTF_8));
    return launcher.report(result);
  }

  @Test
  void aRunInWhichNoOperationEndedExitsOne() throws Exception {
    // The workloadc case with insertstart beyond recordcount: 0 operations, 0 errors, rc 0 before.
    assertThat(exitCode(StopReason.MAXTHREADS, 0, 0)).isEqualTo(ExitCodes.FAILED);
    assertThat(exitCode(StopReason.COMPLETED, 0, 0)).isEqualTo(ExitCodes.FAILED);
  }

  @Test
  void aRunOfFailuresOnlyExitsOneAndOneSuccessIsAResult() throws Exception {
    assertThat(exitCode(StopReason.NOTHING, 8_277, 8_277)).isEqualTo(ExitCodes.FAILED);
    assertThat(exitCode(StopReason.COMPLETED, 2_500, 0)).isEqualTo(ExitCodes.OK);
  }

  @Test
  void anInterruptStaysAnInterrupt() throws Exception {
    assertThat(exitCode(StopReason.INTERRUPTED, 0, 0)).isEqualTo(ExitCodes.INTERRUPTED);
  }
}
