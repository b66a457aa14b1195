package org.geoshard.harness.run;

import static org.geoshard.harness.api.Throwables.describe;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.geoshard.harness.measure.StopReason;
import org.geoshard.harness.api.DataRole;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.api.Secrets;
import org.geoshard.harness.output.RunFolder;
import org.geoshard.harness.output.RunRecord;

/**
 * The one writer of a phase's {@code run.json}: written as the phase is created, after its
 * preparation, and once more at its end, whether it finished, failed or was stopped before the start.
 * Others (observers, the binding session) add their fields to {@link #record()}; they are written here.
 */
final class RunRecorder {
  private final RunFolder folder;
  private final RunRecord record;
  /** The phase's command ({@code load}, {@code run}). */
  private final String command;

  private RunRecorder(RunFolder folder, RunRecord record, String command) {
    this.folder = folder;
    this.record = record;
    this.command = command;
  }

  /**
   * Creates the run folder and writes the first {@code run.json}: what runs, as planned.
   *
   * @throws ConfigException the folder asked for is a file or holds a run already
   */
  static RunRecorder create(RunSettings settings, Path defaultRoot, Binding binding, Properties properties,
      PhasePlan plan, Clock clock) throws ConfigException, IOException {
    String command = settings.phase().commandName();
    RunFolder folder = RunFolder.create(settings.resultsDir(), defaultRoot, clock.instant(), command, binding.name(),
        settings.folderLabel());
    RunRecord record = new RunRecord(command, binding.name(), binding.type().getName(), settings.workloadClass(),
        settings.label(), properties);
    // Unique per execution, so that merge counts a run once (a copy of its folder keeps it). Not from
    // `seed`: repetitions of a scenario share their seed, and each is a run of its own.
    record.put(RunRecord.RUN_UUID, UUID.randomUUID().toString());
    record.put("data", plan.data().stream().map(DataRole::name).sorted().toList());
    record.put("threads", settings.initialThreads()).put("plannedOperations", plan.plannedOperations())
        .put("seed", settings.seed())
        .put("warmupSeconds", settings.ramp().warmup().toSeconds());  // derived when not set: merge needs it
    record.time("createdTime", clock.instant());
    RunRecorder recorder = new RunRecorder(folder, record, command);
    recorder.write();
    return recorder;
  }

  /** The content of {@code run.json}, for whoever adds a field to it. */
  RunRecord record() {
    return record;
  }

  RunFolder folder() {
    return folder;
  }

  Path path() {
    return folder.path();
  }

  /** The preparation before the load is done: its timed steps are kept even if what follows fails. */
  void prepared() throws IOException {
    write();
  }

  /** The thread groups as they start (written with the next write). */
  void threadGroups(PhasePlan plan) {
    if (!plan.groups().isEmpty()) {
      record.put("threadGroups", plan.groups().stream().map(g -> Map.of("name", g.name(), "threads", g.threads(),
          "rates", g.rates(), "stepSeconds", g.stepInterval().toSeconds())).toList());
    }
  }

  /**
   * The phase could not start: {@code status} and one sentence ({@code what} and the cause) into
   * {@code run.json}; the exception to throw says the same.
   */
  StartFailedException failedToStart(String status, String what, Throwable cause) throws IOException {
    String sentence = what + ": " + describe(cause);
    record.put("status", status).put("stopReason", StopReason.FAILED.label()).put("failure", Secrets.maskText(sentence));
    write();
    return new StartFailedException(sentence, cause);
  }

  /** After a stop (Ctrl-C, SIGTERM) before the start: the folder says so, and so does the one line. */
  StartFailedException interruptedBeforeStart() throws IOException {
    record.put("status", "interrupted before the start").put("stopReason", StopReason.INTERRUPTED.label());
    write();
    return new StartFailedException("Interrupted before the start (while the binding reached its server or prepared it):"
        + " nothing was measured; see " + folder.path().resolve(RunFolder.RUN_JSON) + ".", null);
  }

  /** The clock started (written at the end). */
  void started(long startEpochMs) {
    record.time("startTime", Instant.ofEpochMilli(startEpochMs));
  }

  /**
   * A phase cut off does not read the topology after it: a server that stopped answering would hold
   * the reads for its whole deadline (an hour in the study), and an interrupt must act at once.
   */
  void topologySkipped(StopReason reason) {
    record.put("topology", Map.of("recorded", "not after " + command + " (stopped: "
        + reason.label() + ")"));
  }

  /** What the measuring cost: the sampler's rounds and the explained requests (null when none were). */
  void measuringCost(long[] samplerCost, Map<String, Object> queryTargeting) {
    if (queryTargeting != null) {
      record.put("queryTargeting", queryTargeting);
    }
    record.put("sampler", Map.of("intervals", samplerCost[0], "meanMicros", samplerCost[1] / 1000,
        "maxMicros", samplerCost[2] / 1000));
  }

  /**
   * The phase ended: why, when, and how (a preparation after the load that failed, threads still
   * inside an operation after the grace).
   */
  void finished(StopReason reason, long startEpochMs, long runtimeMs, boolean allThreadsEnded, String preparationFailure)
      throws IOException {
    if (preparationFailure != null) {
      record.put("failure", preparationFailure);
    }
    record.put("status", preparationFailure != null ? "failed"
            : allThreadsEnded ? "finished" : "finished with threads still inside an operation")
        .put("stopReason", reason.label())
        .time("endTime", Instant.ofEpochMilli(startEpochMs + runtimeMs))
        .put("runtimeMs", runtimeMs);
    write();
  }

  private void write() throws IOException {
    folder.writeJson(RunFolder.RUN_JSON, record.asMap());
  }
}
