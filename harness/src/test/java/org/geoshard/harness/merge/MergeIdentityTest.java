package org.geoshard.harness.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.binding.NoopDB;
import org.geoshard.harness.cli.ExitCodes;
import org.geoshard.harness.cli.Main;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.output.RunResult;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.Runner;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import site.ycsb.workloads.CoreWorkload;

/**
 * Merge refuses runs that are not clients of one scenario that ran together, one sentence naming the
 * difference, and merges them anyway with --allow-different, recording what differed. The runs are
 * real phases: those that must overlap ran at the same time, the one that must not ran afterwards.
 */
class MergeIdentityTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  static Path dir;

  /** Test helper: a workload of another class that does what CoreWorkload does. */
  public static final class OtherWorkload extends CoreWorkload {
  }

  private static Properties props(String folder, String... pairs) {
    Properties p = new Properties();
    p.setProperty("workload", CoreWorkload.class.getName());
    p.setProperty("recordcount", "100");
    p.setProperty("readproportion", "1");
    p.setProperty("updateproportion", "0");
    p.setProperty("status.interval", "0");
    p.setProperty("stats.warmup", "0");
    p.setProperty("target", "200");
    p.setProperty("operationcount", "0");
    p.setProperty("maxexecutiontime", "3");  // long enough to overlap on a busy machine
    p.setProperty("results.dir", dir.resolve(folder).toString());
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return p;
  }

  /** One thread per client, so that the clients run at the same time whatever the common pool's size. */
  private static final ExecutorService CLIENTS = Executors.newFixedThreadPool(6);

  private static CompletableFuture<RunResult> start(Phase phase, String binding, Properties p) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        return new Runner(RunSettings.fromProperties(phase, p, "client"), p, new Binding(binding, NoopDB.class),
            Path.of("unused")).execute();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }, CLIENTS);
  }

  @BeforeAll
  static void runTheClients() throws Exception {
    // Together: the reference client, a second client of the same scenario (another seed), and one
    // client that differs in each part of the identity.
    List<CompletableFuture<RunResult>> together = List.of(
        start(Phase.RUN, "noop", props("a")),
        start(Phase.RUN, "noop", props("same", "seed", "7")),
        start(Phase.LOAD, "noop", props("load", "recordcount", "1000000")),
        start(Phase.RUN, "other-noop", props("binding")),
        start(Phase.RUN, "noop", props("workload", "workload", OtherWorkload.class.getName())),
        start(Phase.RUN, "noop", props("property", "readproportion", "0.5", "updateproportion", "0.5")));
    for (CompletableFuture<RunResult> run : together) {
      run.get();
    }
    start(Phase.RUN, "noop", props("later")).get();
    CLIENTS.shutdown();
  }

  static Stream<Arguments> differingRuns() {
    return Stream.of(
        Arguments.of("load", "load is a load, " + dir.resolve("a") + " is a run"),
        Arguments.of("binding", "the binding differs: noop in " + dir.resolve("a") + ", other-noop in "),
        Arguments.of("workload", "the workload differs: site.ycsb.workloads.CoreWorkload in "),
        Arguments.of("property", "readproportion differs: 1 in " + dir.resolve("a") + ", 0.5 in " + dir.resolve("property")),
        Arguments.of("later", dir.resolve("a") + " ended "));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("differingRuns")
  void aDifferingRunIsRefusedWithOneSentenceAndMergedOnlyWhenAllowed(String other, String sentence) throws Exception {
    List<Path> sources = List.of(dir.resolve("a"), dir.resolve(other));
    assertThatThrownBy(() -> RunMerger.merge(sources, dir.resolve("refused-" + other)))
        .isInstanceOf(ConfigException.class)
        .satisfies(e -> {
          List<String> problems = ((ConfigException) e).problems();
          assertThat(problems).hasSize(1);
          assertThat(problems.get(0)).contains(sentence).endsWith("(--allow-different merges them anyway).")
              .doesNotContain("\n").doesNotContain("dotransactions differs").doesNotContain("; workload differs");
        });
    assertThat(dir.resolve("refused-" + other)).doesNotExist();

    RunResult merged = RunMerger.merge(sources, dir.resolve("allowed-" + other), true);
    JsonNode record = JSON.readTree(merged.folder().resolve("run.json").toFile());
    assertThat(record.get("differences")).hasSize(1);
    assertThat(record.get("differences").get(0).asText()).contains(sentence);
  }

  @Test
  void clientsOfOneScenarioThatRanTogetherMerge() throws Exception {
    JsonNode a = JSON.readTree(dir.resolve("a/run.json").toFile());
    JsonNode same = JSON.readTree(dir.resolve("same/run.json").toFile());
    assertThat(a.at("/identity/key").asText()).hasSize(64).isEqualTo(same.at("/identity/key").asText());
    assertThat(a.at("/identity/command").asText()).isEqualTo("run");
    assertThat(a.at("/identity/scenario/dotransactions").asText()).isEqualTo("true");
    assertThat(a.at("/identity/scenario").has("seed")).isFalse();

    RunResult merged = RunMerger.merge(List.of(dir.resolve("a"), dir.resolve("same")), dir.resolve("merged"));
    JsonNode record = JSON.readTree(merged.folder().resolve("run.json").toFile());
    assertThat(record.has("differences")).isFalse();
    assertThat(record.at("/identity/key").asText()).isEqualTo(a.at("/identity/key").asText());
  }

  @Test
  void foldersWithoutAnIdentityAreComparedByLabel() throws Exception {
    List<Path> old = new ArrayList<>();
    for (String name : List.of("a", "same")) {
      Path copy = dir.resolve("old-" + name);
      copyFolder(dir.resolve(name), copy);
      ObjectNode record = (ObjectNode) JSON.readTree(copy.resolve("run.json").toFile());
      record.remove("identity");
      record.put("label", "label-" + name);
      JSON.writeValue(copy.resolve("run.json").toFile(), record);
      old.add(copy);
    }
    assertThatThrownBy(() -> RunMerger.merge(old, dir.resolve("old-merged")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("the label differs: label-a in " + old.get(0) + ", label-same in " + old.get(1));
  }

  @Test
  void theCommandExitsTwoAndTheOptionMerges() throws Exception {
    String a = dir.resolve("a").toString();
    String load = dir.resolve("load").toString();
    assertThat(Main.commandLine().execute("merge", a, load, "-o", dir.resolve("cli-refused").toString()))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(Main.commandLine().execute("merge", a, load, "-o", dir.resolve("cli-allowed").toString(),
        "--allow-different")).isEqualTo(ExitCodes.OK);
  }

  private static void assertCountedOnce(List<Path> sources, String out, String sentence) {
    for (boolean allowDifferent : new boolean[] {false, true}) {
      assertThatThrownBy(() -> RunMerger.merge(sources, dir.resolve(out + "-" + allowDifferent), allowDifferent))
          .isInstanceOf(ConfigException.class)
          .satisfies(e -> {
            List<String> problems = ((ConfigException) e).problems();
            assertThat(problems).hasSize(1);
            assertThat(problems.get(0)).contains(sentence).endsWith("a run counts once, even with --allow-different.")
                .doesNotContain("\n");
          });
      assertThat(dir.resolve(out + "-" + allowDifferent)).doesNotExist();
    }
  }

  @Test
  void aRunGivenTwiceIsRefusedEvenWithAllowDifferent() throws Exception {
    // Before: rc 0, and the merged throughput, operations and threads were twice the run's.
    Path a = dir.resolve("a");
    String id = JSON.readTree(a.resolve("run.json").toFile()).get("runUuid").asText();
    assertCountedOnce(List.of(a, a), "twice", a + " is given 2 times (runUuid " + id + ")");
    assertCountedOnce(List.of(a, Path.of(a + "/")), "slash", a + " is given 2 times");
    Path copy = dir.resolve("copy-of-a");
    copyFolder(a, copy);
    assertCountedOnce(List.of(a, copy), "copy", a + " and " + copy + " hold the same run (runUuid " + id + ")");
    assertThat(Main.commandLine().execute("merge", a.toString(), a.toString(), "-o", dir.resolve("cli-twice").toString(),
        "--allow-different")).isEqualTo(ExitCodes.USAGE);
  }

  @Test
  void aRunInsideAMergedFolderIsNotMergedAgain() throws Exception {
    Path a = dir.resolve("a");
    Path merged = RunMerger.merge(List.of(a, dir.resolve("same")), dir.resolve("merged-a-same")).folder();
    JsonNode record = JSON.readTree(merged.resolve("run.json").toFile());
    assertThat(record.get("runUuid").asText()).as("a run of its own")
        .isNotEqualTo(record.at("/sources/0/runUuid").asText());
    assertCountedOnce(List.of(merged, a), "inside", "the merged folder " + merged + " and " + a + " hold the same run");
    assertCountedOnce(List.of(merged, merged), "merged-twice", "the merged folder " + merged + " is given 2 times");
    // Merged once more (with a run of another command, allowed): the runs inside still count.
    Path nested = RunMerger.merge(List.of(merged, dir.resolve("load")), dir.resolve("merged-nested"), true).folder();
    assertCountedOnce(List.of(dir.resolve("same"), nested), "nested", "hold the same run");
  }

  @Test
  void foldersWithoutARunUuidAreMatchedByIdentityHostAndStartTime() throws Exception {
    List<Path> old = new ArrayList<>();
    for (String name : List.of("a", "a", "same")) {
      Path copy = dir.resolve("uuidless-" + name + "-" + old.size());
      copyFolder(dir.resolve(name), copy);
      ObjectNode record = (ObjectNode) JSON.readTree(copy.resolve("run.json").toFile());
      record.remove("runUuid");
      JSON.writeValue(copy.resolve("run.json").toFile(), record);
      old.add(copy);
    }
    String start = JSON.readTree(old.get(0).resolve("run.json").toFile()).get("startTime").asText();
    assertCountedOnce(List.of(old.get(0), old.get(1)), "uuidless", "hold the same run (no runUuid, written before runs"
        + " had one: the same identity, host ");
    assertCountedOnce(List.of(old.get(0), old.get(1)), "uuidless-start", "and start time " + start + ")");
    // Two clients of one scenario on this host that started apart are two runs.
    assertThat(RunMerger.merge(List.of(old.get(0), old.get(2)), dir.resolve("uuidless-merged")).operations()).isPositive();
    // And an older merged folder (its sources without runUuid) still knows the runs in it.
    Path oldMerged = RunMerger.merge(List.of(old.get(0), old.get(2)), dir.resolve("uuidless-merged-2")).folder();
    ObjectNode record = (ObjectNode) JSON.readTree(oldMerged.resolve("run.json").toFile());
    record.withArray("sources").forEach(source -> ((ObjectNode) source).remove("identityKey"));
    JSON.writeValue(oldMerged.resolve("run.json").toFile(), record);
    assertCountedOnce(List.of(oldMerged, old.get(1)), "uuidless-inside", "hold the same run");
  }

  private static void copyFolder(Path from, Path to) throws Exception {
    Files.createDirectories(to);
    try (Stream<Path> files = Files.list(from)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        Files.copy(file, to.resolve(file.getFileName()));
      }
    }
  }
}
