package org.geoshard.mongodb.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.geoshard.harness.cli.ExitCodes;
import org.geoshard.mongodb.FerretServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import picocli.CommandLine;

/**
 * {@code bench mongodb} end to end, briefly, against FerretDB (NOT MongoDB: see {@code FerretSuite}):
 * the suite's server through {@code mongodb.url}, and a stand-in of its own started through
 * {@code bin/ferretdb} and stopped at the end. Only the shape of the report is checked, never a figure
 * (FerretDB's speed means nothing, and the machine is shared).
 */
@EnabledIfSystemProperty(named = FerretServer.URL_PROPERTY, matches = ".+")
class MongoBenchFerretTest {
  private static final String RATIO = " vs bare driver: throughput \\d+\\.\\d\\d×, CPU per operation \\d+\\.\\d\\d×";

  private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

  private int bench(Path launcher, String... args) throws Exception {
    MongoBenchCommand command = new MongoBenchCommand(new PrintStream(printed, true, StandardCharsets.UTF_8), launcher);
    new CommandLine(command).parseArgs(args);
    return command.call();
  }

  private List<String> lines() {
    return printed.toString(StandardCharsets.UTF_8).lines().toList();
  }

  @Test
  void bothBindingsBesideTheirBareDriverOnTheSuitesServer() throws Exception {
    String url = FerretServer.shared("bench_both");
    try (MongoClient client = MongoClients.create(url)) {
      client.getDatabase("bench_both").drop();
    }
    int code = bench(null, "-p", "mongodb.url=" + url, "-records", "40", "-threads", "2", "-seconds", "1", "-warmup", "1",
        "-rounds", "1");
    List<String> lines = lines();
    assertThat(code).as(String.join("\n", lines)).isEqualTo(ExitCodes.OK);
    assertThat(lines).anyMatch(l -> l.matches("machine: \\d+ cores, load average .*"));
    assertThat(lines).anyMatch(l -> l.startsWith("loading 40 records into bench_both.usertable"));
    assertThat(lines).anyMatch(l -> l.matches("  run 1  mongodb-geo +[\\d,]+ reads/s .*"));
    assertThat(lines).anyMatch(l -> l.matches("  run 1  bare sync +[\\d,]+ reads/s .*"));
    assertThat(lines).anyMatch(l -> l.matches("  run 1  mongodb-async +[\\d,]+ reads/s .*"));
    assertThat(lines).anyMatch(l -> l.matches("  run 1  bare reactive +[\\d,]+ reads/s .*"));
    assertThat(lines.get(lines.size() - 2)).matches("mongodb-geo" + RATIO);
    assertThat(lines.get(lines.size() - 1)).matches("mongodb-async" + RATIO);
    try (MongoClient client = MongoClients.create(url)) {
      assertThat(client.getDatabase("bench_both").getCollection("usertable").countDocuments()).isEqualTo(40);
    }

    // A second bench reads the records the first loaded.
    printed.reset();
    assertThat(bench(null, "-p", "mongodb.url=" + url, "-records", "40", "-threads", "1", "-seconds", "1", "-warmup", "0",
        "-rounds", "1", "-bindings", "mongodb-geo")).isEqualTo(ExitCodes.OK);
    assertThat(lines()).contains("using the 40 records already in bench_both.usertable");
    // Other sizes are refused rather than mixed in.
    assertThat(bench(null, "-p", "mongodb.url=" + url, "-records", "41", "-seconds", "1", "-warmup", "0"))
        .isEqualTo(ExitCodes.FAILED);
  }

  @Test
  void withoutAUrlItStartsAStandInAndStopsIt() throws Exception {
    Path launcher = Path.of(System.getProperty(FerretServer.LAUNCHER_PROPERTY));
    int code = bench(launcher, "-records", "20", "-threads", "1", "-seconds", "1", "-warmup", "0", "-rounds", "1",
        "-bindings", "mongodb-geo");
    List<String> lines = lines();
    assertThat(code).as(String.join("\n", lines)).isEqualTo(ExitCodes.OK);
    assertThat(lines).anyMatch(l -> l.matches("server: mongodb://127\\.0\\.0\\.1:\\d+/geoshard_bench \\(FerretDB v1\\.24\\.2,"
        + " NOT MongoDB, .*"));
    assertThat(lines.get(lines.size() - 1)).matches("mongodb-geo" + RATIO);
    assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive))
        .as("no FerretDB left running").isEmpty();
  }
}
