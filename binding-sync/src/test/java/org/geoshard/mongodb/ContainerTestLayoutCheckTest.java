package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A static check of the Docker suites' sources, run where no Docker runs: a {@code *ContainerTest} of
 * binding-sync or binding-async lays out no cluster or collection itself. Its clusters come from
 * {@link ThrowawayCluster} and its sharded collections from the binding's preparation, the code that
 * {@link LayoutCommandsTest} checks against every version's rules; a hand-written command sequence is
 * checked by nothing until the CI matrix runs it (a shardCollection without enableSharding, refused
 * before FCV 6.0, was one). A {@code --replSet} node must be initiated, so a test that starts one
 * itself must let Testcontainers initiate it ({@code withReplicaSet()}).
 */
class ContainerTestLayoutCheckTest {
  private static final String COMMANDS = "enableSharding|shardCollection|split|splitChunk|moveChunk|moveRange"
      + "|mergeChunks|addShard|removeShard|addShardToZone|updateZoneKeyRange|reshardCollection|replSetInitiate"
      + "|replSetReconfig";
  /**
   * A command that shapes a cluster or a collection's distribution, as a command document
   * ({@code new Document("addShard", ...)}, JSON {@code {addShard: ...}}) or a shell helper; not a mere
   * mention of its name (an assertion on what run.json says the preparation sent is fine).
   */
  private static final Pattern LAYOUT = Pattern.compile("Document\\(\\s*\"(" + COMMANDS + ")\"|\\{\\s*\"?("
      + COMMANDS + ")\"?\\s*:|\\b(sh|rs)\\.(initiate|reconfig|enableSharding|shardCollection|splitAt|splitFind|moveChunk"
      + "|moveRange|addShard)\\(");

  static List<Path> containerTests() throws IOException {
    Path root = Path.of(System.getProperty("user.dir")).getParent();
    List<Path> found = new ArrayList<>();
    for (String module : List.of("binding-sync", "binding-async")) {
      try (Stream<Path> files = Files.walk(root.resolve(module).resolve("src/test/java"))) {
        files.filter(f -> f.getFileName().toString().endsWith("ContainerTest.java")).sorted().forEach(found::add);
      }
    }
    return found;
  }

  /** Each problem of one source: "file:line: what". */
  static List<String> problems(Path file, String source) {
    List<String> problems = new ArrayList<>();
    String[] lines = source.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      Matcher m = LAYOUT.matcher(lines[i]);
      if (m.find()) {
        problems.add(file.getFileName() + ":" + (i + 1) + ": sends " + (m.group(3) != null ? m.group(3) + "." + m.group(4)
            : m.group(1) != null ? m.group(1) : m.group(2)) + " itself (use ThrowawayCluster and the"
            + " binding's preparation)");
      }
      if (lines[i].contains("\"--replSet\"") && !source.contains(".withReplicaSet()")) {
        problems.add(file.getFileName() + ":" + (i + 1) + ": starts a --replSet node that nothing initiates");
      }
    }
    return problems;
  }

  @Test
  void noContainerTestLaysOutItsOwnCluster() throws IOException {
    List<Path> tests = containerTests();
    assertThat(tests).extracting(p -> p.getFileName().toString())
        .contains("TimeoutContainerTest.java", "CellKeyContainerTest.java", "ThreeRouterClusterContainerTest.java");
    List<String> problems = new ArrayList<>();
    for (Path test : tests) {
      problems.addAll(problems(test, Files.readString(test)));
    }
    assertThat(problems).isEmpty();
  }

  @Test
  void theCheckSeesAHandWrittenLayout() {
    Path file = Path.of("XContainerTest.java");
    assertThat(problems(file, "admin.runCommand(new Document(\"shardCollection\", \"ycsb.t\"));")).hasSize(1);
    assertThat(problems(file, "new Document(\"replSetInitiate\", config)")).hasSize(1);
    assertThat(problems(file, "mongo.withCommand(\"--replSet\", \"rs\")")).hasSize(1);
    assertThat(problems(file, "mongo.withReplicaSet().withCommand(\"--replSet\", \"docker-rs\")")).isEmpty();
    assertThat(problems(file, "Document.parse(\"{moveChunk: 'ycsb.t'}\")")).hasSize(1);
    assertThat(problems(file, "exec(\"mongosh\", \"--eval\", \"sh.shardCollection('ycsb.t', {a: 1})\")")).hasSize(1);
    assertThat(problems(file, "// the split of the ranges; ThrowawayCluster.start(3, image, false)")).isEmpty();
    assertThat(problems(file, "assertThat(placed).containsEntry(\"command\", \"moveRange\")")).isEmpty();
  }
}
