package org.geoshard.harness.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.geoshard.harness.api.DataRole;
import org.geoshard.harness.api.DeclaresData;
import org.geoshard.harness.api.DescribesTopology;
import org.geoshard.harness.api.Preparable;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.cli.ExitCodes;
import org.geoshard.harness.cli.Main;
import org.geoshard.harness.output.RunResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import site.ycsb.DBException;
import site.ycsb.workloads.CoreWorkload;

class PreparationTest {
  @TempDir
  Path dir;

  /** Test helper: records what it is asked to prepare, per value of test.log. */
  public static final class PreparedDB extends org.geoshard.harness.binding.NoopDB implements Preparable, DescribesTopology {
    static final Map<String, List<String>> LOG = new ConcurrentHashMap<>();

    static final Map<String, Set<DataRole>> DATA = new ConcurrentHashMap<>();

    @Override
    public void prepare(Stage stage, Set<DataRole> data, Steps steps) throws DBException {
      String key = getProperties().getProperty("test.log");
      DATA.put(key, data);
      steps.step("create table", () -> {
        if ("true".equals(getProperties().getProperty("test.hang"))) {
          Thread.sleep(600_000);  // a server that never answers; an interrupt ends the wait
        }
        if ("true".equals(getProperties().getProperty("test.failcreate"))) {
          throw new IllegalStateException("permission denied to create table");
        }
        LOG.computeIfAbsent(key, k -> new CopyOnWriteArrayList<>()).add(stage + ": create");
        return Map.of("created", true);
      });
      if (stage == Stage.AFTER_LOAD) {
        steps.step("build index", () -> {
          if ("true".equals(getProperties().getProperty("test.failindex"))) {
            throw new IllegalStateException("index build failed: out of disk");
          }
          Thread.sleep(20);
          LOG.get(key).add(stage + ": index");
          return Map.of("perShard", Map.of("shard01", 12));
        });
      }
    }

    @Override
    public Map<String, Object> topology() {
      return Map.of("kind", "standalone", "serverVersion", "test");
    }
  }

  private Properties props(String log, String... pairs) {
    Properties p = new Properties();
    p.setProperty("workload", CoreWorkload.class.getName());
    p.setProperty("recordcount", "100");
    p.setProperty("status.interval", "0");
    p.setProperty("test.log", log);
    p.setProperty("results.dir", dir.resolve(log).toString());
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return p;
  }

  @Test
  void aLoadPreparesBeforeAndAfterAndTimesEachStep() throws Exception {
    Properties p = props("load");
    RunResult result = new Runner(RunSettings.fromProperties(Phase.LOAD, p, "x"), p,
        new Binding("prepared", PreparedDB.class), dir).execute();
    assertThat(PreparedDB.LOG.get("load")).containsExactly("BEFORE_LOAD: create", "AFTER_LOAD: create", "AFTER_LOAD: index");
    JsonNode record = new ObjectMapper().readTree(result.folder().resolve("run.json").toFile());
    JsonNode steps = record.get("preparation");
    assertThat(steps).hasSize(3);
    assertThat(steps.get(0).get("step").asText()).isEqualTo("create table");
    assertThat(steps.get(0).get("stage").asText()).isEqualTo("before-load");
    assertThat(steps.get(2).get("step").asText()).isEqualTo("build index");
    assertThat(steps.get(2).get("millis").asLong()).isGreaterThanOrEqualTo(20);
    assertThat(steps.get(2).at("/perShard/shard01").asInt()).isEqualTo(12);
    assertThat(record.at("/topology/kind").asText()).isEqualTo("standalone");
    assertThat(record.at("/topology/recorded").asText()).isEqualTo("after load");
    assertThat(result.hasFailures()).isFalse();
  }

  @Test
  void aFailedIndexBuildAfterTheLoadFailsTheRunButKeepsTheMeasurements() throws Exception {
    Properties p = props("failing", "test.failindex", "true");
    RunResult result = new Runner(RunSettings.fromProperties(Phase.LOAD, p, "x"), p,
        new Binding("prepared", PreparedDB.class), dir).execute();
    assertThat(result.hasFailures()).isTrue();
    assertThat(result.operations()).isEqualTo(100);
    JsonNode record = new ObjectMapper().readTree(result.folder().resolve("run.json").toFile());
    assertThat(record.at("/preparation/2/failed").asText()).contains("out of disk");
    assertThat(record.get("status").asText()).isEqualTo("failed");
    assertThat(record.get("failure").asText()).isEqualTo(
        "Preparing the database after the load failed: step 'build index' failed: index build failed: out of disk");
    assertThat(result.preparationFailure()).isEqualTo(record.get("failure").asText());
  }

  @Test
  void theRunPhaseRecordsTheTopologyButPreparesNothing() throws Exception {
    Properties p = props("run", "operationcount", "10");
    RunResult result = new Runner(RunSettings.fromProperties(Phase.RUN, p, "x"), p,
        new Binding("prepared", PreparedDB.class), dir).execute();
    assertThat(PreparedDB.LOG.get("run")).isNull();
    JsonNode record = new ObjectMapper().readTree(result.folder().resolve("run.json").toFile());
    assertThat(record.has("preparation")).isFalse();
    assertThat(record.at("/topology/recorded").asText()).isEqualTo("after run");
  }

  @Test
  void thePrepareCommandRunsTheStagesAskedFor() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream previous = System.out;
    int code;
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      code = Main.commandLine().execute("prepare", PreparedDB.class.getName(), "-p", "test.log=cmd",
          "-p", "workload=" + CoreWorkload.class.getName(),
          "-p", "results.dir=" + dir.resolve("cmd"), "--stage", "all");
    } finally {
      System.setOut(previous);
    }
    assertThat(code).isEqualTo(ExitCodes.OK);
    assertThat(PreparedDB.LOG.get("cmd")).containsExactly("BEFORE_LOAD: create", "AFTER_LOAD: create", "AFTER_LOAD: index");
    JsonNode record = new ObjectMapper().readTree(dir.resolve("cmd/run.json").toFile());
    assertThat(record.get("command").asText()).isEqualTo("prepare");
    assertThat(record.get("preparation")).hasSize(3);
    assertThat(Main.commandLine().execute("prepare", "noop")).isEqualTo(ExitCodes.USAGE);
    assertThat(Main.commandLine().execute("prepare", PreparedDB.class.getName(), "--stage", "later"))
        .isEqualTo(ExitCodes.USAGE);
  }

  /** Test helper: a workload that loads data of two roles of its own. */
  public static final class TwoRoleWorkload extends CoreWorkload implements DeclaresData {
    static final DataRole POINTS = new DataRole("test points");
    static final DataRole TRACKS = new DataRole("test tracks");

    @Override
    public Set<DataRole> dataRoles() {
      return Set.of(POINTS, TRACKS);
    }
  }

  @Test
  void preparationIsGivenTheDataTheWorkloadDeclaresAndNothingElse() throws Exception {
    Properties declared = props("declared", "workload", TwoRoleWorkload.class.getName());
    RunResult result = new Runner(RunSettings.fromProperties(Phase.LOAD, declared, "x"), declared,
        new Binding("prepared", PreparedDB.class), dir).execute();
    assertThat(PreparedDB.DATA.get("declared")).containsExactlyInAnyOrder(TwoRoleWorkload.POINTS, TwoRoleWorkload.TRACKS);
    JsonNode record = new ObjectMapper().readTree(result.folder().resolve("run.json").toFile());
    assertThat(record.get("data").toString()).isEqualTo("[\"test points\",\"test tracks\"]");

    // YCSB's own workload declares nothing: it loads the key-value table, and only that.
    Properties core = props("core");
    new Runner(RunSettings.fromProperties(Phase.LOAD, core, "x"), core, new Binding("prepared", PreparedDB.class), dir)
        .execute();
    assertThat(PreparedDB.DATA.get("core")).containsExactly(DataRole.KEY_VALUE);

    // The prepare command asks the workload class without loading it.
    assertThat(Main.commandLine().execute("prepare", PreparedDB.class.getName(), "-p", "test.log=cmd-declared",
        "-p", "workload=" + TwoRoleWorkload.class.getName(), "-p", "results.dir=" + dir.resolve("cmd-declared")))
        .isEqualTo(ExitCodes.OK);
    assertThat(PreparedDB.DATA.get("cmd-declared")).containsExactlyInAnyOrder(TwoRoleWorkload.POINTS,
        TwoRoleWorkload.TRACKS);
  }

  @Test
  void thePrepareCommandRefusesToGuessTheWorkload() {
    assertThat(Main.commandLine().execute("prepare", PreparedDB.class.getName(), "-p", "test.log=guess",
        "-p", "results.dir=" + dir.resolve("guess"))).isEqualTo(ExitCodes.USAGE);
    assertThat(PreparedDB.DATA.get("guess")).isNull();
    assertThat(dir.resolve("guess")).doesNotExist();
  }

  @Test
  void aFailedPreparationBeforeTheLoadStopsIt() throws Exception {
    Properties p = props("broken", "test.failcreate", "true");
    assertThatThrownBy(() -> new Runner(RunSettings.fromProperties(Phase.LOAD, p, "x"), p,
        new Binding("prepared", PreparedDB.class), dir).execute())
        .isInstanceOf(StartFailedException.class)
        .hasMessageContaining("permission denied to create table");
    assertThat(dir.resolve("broken/summary.json")).doesNotExist();
  }
}
