package org.geoshard.harness.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs {@code Main} in a JVM of its own, as bin/ycsb does, to see exit codes, messages and signals. */
class MainProcessTest {
  @TempDir
  Path dir;

  private record Outcome(int exitCode, String stdout, String stderr) {
  }

  private Process start(String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"),
        "-Dgeoshard.home=" + dir, Main.class.getName()));
    command.addAll(List.of(args));
    return new ProcessBuilder(command)
        .redirectOutput(dir.resolve("stdout").toFile())
        .redirectError(dir.resolve("stderr").toFile())
        .start();
  }

  private Outcome run(String... args) throws Exception {
    Process process = start(args);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return outcome(process);
  }

  private Outcome outcome(Process process) throws IOException {
    return new Outcome(process.exitValue(), Files.readString(dir.resolve("stdout"), StandardCharsets.UTF_8),
        Files.readString(dir.resolve("stderr"), StandardCharsets.UTF_8));
  }

  private Path workloadc() throws IOException {
    return Files.writeString(dir.resolve("workloadc"), String.join("\n",
        "workload=site.ycsb.workloads.CoreWorkload", "recordcount=1000", "operationcount=2000",
        "readproportion=1", "updateproportion=0", "status.interval=0", ""));
  }

  @Test
  void aSuccessfulRunPrintsTheSummaryAndExitsZero() throws Exception {
    Outcome outcome = run("run", "noop", "-P", workloadc().toString(), "-threads", "2");
    assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
    assertThat(outcome.stdout()).contains("[OVERALL], Operations, 2000").contains("[READ], Operations, 2000");
    // 2,000 no-op reads end long before the default 5 s warm-up: said, not silently left out of summary.json,
    // and said to be the default (the user gave no stats.warmup).
    assertThat(outcome.stderr())
        .contains("no longer than stats.warmup (5 s, the default): summary.json has no plateau statistics");
    try (var runs = Files.list(dir.resolve("results/runs"))) {
      assertThat(runs.map(p -> p.getFileName().toString()).toList())
          .singleElement().asString().matches("\\d{8}T\\d{6}Z-run-noop-workloadc");
    }
  }

  @Test
  void aLoadHasNoPlateauAndSaysNothingAboutIt() throws Exception {
    Outcome outcome = run("load", "noop", "-P", workloadc().toString());
    assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
    assertThat(outcome.stdout()).contains("[INSERT], Operations, 1000").contains("[INSERT], Throughput(ops/sec), ");
    assertThat(outcome.stderr()).doesNotContain("plateau");
  }

  @Test
  void userMistakesGetOneLineEachAndExitTwo() throws Exception {
    Path workload = workloadc();
    assertMistake(run("run", "mongo", "-P", workload.toString()), "Unknown binding 'mongo'");
    assertMistake(run("run", "noop", "-P", dir.resolve("geo9s").toString()), "-P " + dir.resolve("geo9s") + ": no such file.");
    assertMistake(run("run", "noop", "-P", workload.toString(), "-p", "threadcount=many"),
        "Property 'threadcount' must be a whole number from 1 to 100000, but is 'many'.");
    assertMistake(run("run", "noop", "-P", workload.toString(), "-p", "operationcount=-3"),
        "Property 'operationcount' must be a whole number of at least 0, but is '-3'.");
    assertMistake(run("run", "noop", "-P", workload.toString(), "-p", "status.intreval=5"),
        "Property 'status.intreval' is unknown; did you mean 'status.interval'?");
    assertMistake(run("run", "noop", "-P", workload.toString(), "-threads", "-1"), "-threads -1: must be at least 1.");
    assertMistake(run("run", "noop", "-P", workload.toString(), "-bogus"), "Unknown option: '-bogus'");
    assertThat(dir.resolve("results/runs")).doesNotExist();
  }

  @Test
  void firstHourMistakesAreOneSentenceAndExitTwo() throws Exception {
    Path workload = workloadc();
    Path file = Files.writeString(dir.resolve("a-file"), "x");
    assertMistake(run("run", "noop", "-P", workload.toString(), "-p", "results.dir=" + file),
        "Property 'results.dir': " + file + " is a file, not a folder; choose a folder for the run.");
    assertMistake(run("run", "noop", "-P", workload.toString(), "-p", "results.dir=" + file.resolve("below")),
        "Property 'results.dir': " + file.resolve("below") + " cannot be created because " + file
            + " is a file, not a folder; choose a folder for the run.");
    assertMistake(run("run", "noop", "-P", workload.toString(), "-p", "results.dir=/proc/x"),
        "Property 'results.dir': /proc/x cannot be created or written (");
    assertMistake(run("run", "noop", "-P", workload.toString(), "-l", "x".repeat(300)),
        "Property 'results.label' (-l) is 300 characters long; a label may have at most 100.");
    assertMistake(run("run", "noop", "-P", workload.toString(), "-l", "two\nlines"),
        "Property 'results.label' (-l) holds a control character");
    assertMistake(run("run", "noop", "-P", dir.toString()), "-P " + dir + ": is a directory; give a workload properties file");
    Outcome password = run("run", "noop", "-P", workload.toString(), "-p", "my.url=mongodb://bob:Lk@Zq9@host/db");
    assertMistake(password, "percent-encode it");
    assertThat(password.stderr()).doesNotContain("Lk").doesNotContain("Zq9");
    assertMistake(run("run", "noop", "-P", workload.toString(), "-p", "ramp.start=2", "-p", "ramp.rate.start=50"),
        "are set but 'ramp.mode' is not");
  }

  @Test
  void aNonAsciiLabelIsKeptAsTypedAndOnlyTheFolderNameIsMadeSafe() throws Exception {
    Outcome outcome = run("run", "noop", "-P", workloadc().toString(), "-l", "Zürich/東京 run");
    assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
    Path folder;
    try (var runs = Files.list(dir.resolve("results/runs"))) {
      folder = runs.findFirst().orElseThrow();
    }
    assertThat(folder.getFileName().toString()).matches("\\d{8}T\\d{6}Z-run-noop-Zurich_run");
    JsonNode record = new ObjectMapper().readTree(folder.resolve("run.json").toFile());
    assertThat(record.get("label").asText()).isEqualTo("Zürich/東京 run");
  }

  @Test
  void rampPropertiesWithoutAModeRunTheRampAndATypoIsPointedOut() throws Exception {
    Path folder = dir.resolve("ramp");
    Outcome outcome = run("run", "noop", "-P", workloadc().toString(), "-p", "ramp.start=1", "-p", "ramp.step=1",
        "-p", "ramp.maxthreads=2", "-p", "ramp.interval=1", "-p", "recordcont=5", "-p", "results.dir=" + folder);
    assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
    assertThat(outcome.stderr()).contains("running the study's thread ramp (ramp.mode=threads)")
        .contains("Property 'recordcont' is read by no module geoshard knows; did you mean 'recordcount'?");
    JsonNode summary = new ObjectMapper().readTree(folder.resolve("summary.json").toFile());
    assertThat(summary.at("/ramp/mode").asText()).isEqualTo("threads");
    assertThat(summary.at("/ramp/steps")).isNotEmpty();
  }

  private static void assertMistake(Outcome outcome, String message) {
    assertThat(outcome.exitCode()).as(outcome.stderr()).isEqualTo(ExitCodes.USAGE);
    assertThat(outcome.stderr()).contains(message);
    assertThat(outcome.stderr()).doesNotContain("Exception");
  }

  @Test
  void operationErrorsExitOne() throws Exception {
    // Every third read of this binding fails; YCSB's Client would still exit 0.
    Outcome outcome = run("run", "org.geoshard.harness.run.TestBindings$FailingDB", "-P", workloadc().toString());
    assertThat(outcome.exitCode()).as(outcome.stderr()).isEqualTo(ExitCodes.FAILED);
    assertThat(outcome.stdout()).contains("[READ], Return=ERROR, 666");
    assertThat(outcome.stderr()).contains("666 operations failed and 0 threads failed");
  }

  @Test
  void aFailedPreparationAfterTheLoadIsAFailedPhaseSaidInOneSentence() throws Exception {
    Outcome outcome = run("load", "org.geoshard.harness.run.PreparationTest$PreparedDB",
        "-p", "workload=site.ycsb.workloads.CoreWorkload", "-p", "recordcount=50", "-p", "status.interval=0",
        "-p", "test.log=process", "-p", "test.failindex=true", "-p", "results.dir=" + dir.resolve("failed-index"));
    assertThat(outcome.exitCode()).as(outcome.stderr()).isEqualTo(ExitCodes.FAILED);
    String[] lines = outcome.stderr().strip().split("\n");
    assertThat(lines[lines.length - 1]).contains("Preparing the database after the load failed: step 'build index'"
        + " failed: index build failed: out of disk (0 operations failed, 0 threads failed); see ");
    assertThat(outcome.stderr()).doesNotContain("\tat ").doesNotContain("IllegalStateException");
    var record = new com.fasterxml.jackson.databind.ObjectMapper().readTree(dir.resolve("failed-index/run.json").toFile());
    assertThat(record.get("status").asText()).isEqualTo("failed");
    assertThat(record.get("failure").asText()).isEqualTo("Preparing the database after the load failed: step"
        + " 'build index' failed: index build failed: out of disk");
  }

  /**
   * Waits until the condition holds or the process ends. A JVM starting on a saturated machine can take
   * tens of seconds, hence the wide deadline; callers check what they waited for, never assume it.
   */
  private static void awaitUntil(Process process, java.util.function.BooleanSupplier condition) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
    while (System.nanoTime() < deadline && process.isAlive() && !condition.getAsBoolean()) {
      Thread.sleep(100);
    }
  }

  /** Waits until a full second is in the phase's time series (then a SIGTERM has something to keep). */
  private static void awaitAnInterval(Process process, Path folder) throws Exception {
    awaitUntil(process, () -> hasAnInterval(folder.resolve("timeseries.csv")));
    assertThat(hasAnInterval(folder.resolve("timeseries.csv"))).as("a second measured before the SIGTERM").isTrue();
  }

  /** Sends SIGTERM and checks that the process exits 143 within seconds (about one on an idle machine). */
  private Outcome sigtermActsAtOnce(Process process) throws Exception {
    long sent = System.nanoTime();
    process.destroy();
    assertThat(process.waitFor(180, TimeUnit.SECONDS)).isTrue();
    long ms = (System.nanoTime() - sent) / 1_000_000;
    Outcome outcome = outcome(process);
    assertThat(outcome.exitCode()).as(outcome.stderr()).isEqualTo(128 + 15);
    // JVM shutdown included; the bound leaves a loaded machine room.
    assertThat(ms).as("ms from SIGTERM to exit").isLessThan(10_000L);
    return outcome;
  }

  @Test
  void sigtermWhileWaitingOnTheServerBeforeTheStartActsAtOnce() throws Exception {
    Path folder = dir.resolve("waiting");
    Process process = start("load", "org.geoshard.harness.run.PreparationTest$PreparedDB",
        "-p", "workload=site.ycsb.workloads.CoreWorkload", "-p", "recordcount=50", "-p", "status.interval=0",
        "-p", "test.log=hang", "-p", "test.hang=true", "-p", "results.dir=" + folder);
    // The folder exists once the phase has started; the preparation then waits on a server that never answers.
    awaitUntil(process, () -> Files.exists(folder.resolve("run.json")));
    Thread.sleep(500);
    assertThat(process.isAlive()).as("waiting on the server").isTrue();
    Outcome outcome = sigtermActsAtOnce(process);
    String[] lines = outcome.stderr().strip().split("\n");
    assertThat(lines[lines.length - 1]).contains("Interrupted before the start");
    JsonNode record = new ObjectMapper().readTree(folder.resolve("run.json").toFile());
    assertThat(record.get("status").asText()).isEqualTo("interrupted before the start");
    assertThat(record.get("stopReason").asText()).isEqualTo("interrupted");
  }

  @Test
  void sigtermWhileEveryOperationWaitsOnAStalledServerActsAtOnce() throws Exception {
    Path folder = dir.resolve("stalled");
    Process process = start("run", "org.geoshard.harness.run.TestBindings$StalledDB", "-P", workloadc().toString(),
        "-p", "operationcount=0", "-p", "maxexecutiontime=600", "-p", "giveup.s=0", "-p", "test.stall=forever",
        "-p", "results.dir=" + folder);
    // Every thread does 10 reads, then waits on a server that never answers: the time series has a second
    // with reads and then nothing but waits.
    awaitAnInterval(process, folder);
    // Well below the 30 s a phase ending at its time gives the operations in flight.
    Outcome outcome = sigtermActsAtOnce(process);
    String[] lines = outcome.stderr().strip().split("\n");
    assertThat(lines[lines.length - 1]).contains("Interrupted");
    JsonNode summary = new ObjectMapper().readTree(folder.resolve("summary.json").toFile());
    assertThat(summary.get("stopReason").asText()).isEqualTo("interrupted");
    assertThat(summary.at("/perOperation/READ/errors").asLong()).as("one unanswered read per thread").isEqualTo(1);
  }

  @Test
  void sigtermStopsCleanlyAndKeepsTheMeasurements() throws Exception {
    Path folder = dir.resolve("interrupted");
    Process process = start("run", "noop", "-P", workloadc().toString(), "-p", "operationcount=0",
        "-p", "maxexecutiontime=600", "-p", "results.dir=" + folder);
    awaitAnInterval(process, folder);
    process.destroy();
    assertThat(process.waitFor(180, TimeUnit.SECONDS)).isTrue();
    Outcome outcome = outcome(process);
    assertThat(outcome.exitCode()).as(outcome.stderr()).isEqualTo(128 + 15);
    JsonNode summary = new ObjectMapper().readTree(folder.resolve("summary.json").toFile());
    assertThat(summary.get("stopReason").asText()).isEqualTo("interrupted");
    assertThat(summary.get("operations").asLong()).isPositive();
    JsonNode record = new ObjectMapper().readTree(folder.resolve("run.json").toFile());
    assertThat(record.get("stopReason").asText()).isEqualTo("interrupted");
  }

  @Test
  void helpAndVersionExitZero() throws Exception {
    Outcome help = run("--help");
    assertThat(help.exitCode()).isZero();
    assertThat(help.stdout()).contains("load").contains("run").contains("bench");
    Outcome runHelp = run("run", "--help");
    assertThat(runHelp.stdout()).contains("-threads N").contains("-P FILE").contains("Exit codes").contains("130 interrupted")
        .contains("143 terminated");
    Outcome version = run("--version");
    assertThat(version.stdout()).startsWith("geoshard ");
  }

  private static boolean hasAnInterval(Path timeseries) {
    try {
      return Files.exists(timeseries) && Files.readAllLines(timeseries).size() > 1;
    } catch (IOException e) {
      return false;  // being written: asked again
    }
  }
}
