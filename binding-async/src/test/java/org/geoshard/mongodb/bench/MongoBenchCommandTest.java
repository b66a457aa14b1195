package org.geoshard.mongodb.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import org.geoshard.harness.cli.ExitCodes;
import org.geoshard.harness.cli.Main;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class MongoBenchCommandTest {
  private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

  private MongoBenchCommand command(String... args) {
    MongoBenchCommand command = new MongoBenchCommand(new PrintStream(printed, true, StandardCharsets.UTF_8), null);
    new CommandLine(command).parseArgs(args);
    return command;
  }

  @Test
  void goodOptionsHaveNoProblemAndPassTheirProperties() {
    Properties given = new Properties();
    assertThat(command("-threads", "8", "-seconds", "5", "-warmup", "0", "-records", "500", "-bindings", "mongodb-async",
        "-p", "mongodb.url=mongodb://u:secret@db1:27017/x", "-p", "mongodb.timeout.ms = 5000").problems(given)).isEmpty();
    assertThat(given).containsEntry("mongodb.url", "mongodb://u:secret@db1:27017/x").containsEntry("mongodb.timeout.ms", "5000");
  }

  @Test
  void everyBadOptionIsNamedAtOnce() {
    assertThat(command("-threads", "0", "-seconds", "0", "-warmup", "-1", "-rounds", "0", "-records", "0",
        "-bindings", "mongodb-geo,mongodb", "-p", "nokey", "-p", "threadcount=8", "-p", "recordcount=5")
        .problems(new Properties())).containsExactly(
            "-threads must be at least 1, not 0.",
            "-seconds must be at least 1, not 0.",
            "-warmup must be at least 0, not -1.",
            "-rounds must be at least 1, not 0.",
            "-records must be at least 1, not 0.",
            "-bindings: 'mongodb' is not one of mongodb-geo, mongodb-async.",
            "-p 'nokey' is not KEY=VALUE.",
            "-p threadcount: bench mongodb sets it itself (use -threads).",
            "-p recordcount: bench mongodb sets it itself (use -records).");
  }

  @Test
  void aPasswordInABadPairIsMasked() {
    assertThat(command("-p", "mongodb://u:secret@db1").problems(new Properties()))
        .containsExactly("-p 'mongodb://u:****@db1' is not KEY=VALUE.");
  }

  @Test
  void badInputEndsWithTheUsageCodeBeforeAnythingStarts() throws Exception {
    assertThat(command("-threads", "0").call()).isEqualTo(ExitCodes.USAGE);
    assertThat(command("-p", "mongodb.urll=mongodb://db1").call()).as("a misspelt property").isEqualTo(ExitCodes.USAGE);
    assertThat(command().call()).as("no mongodb.url and no bin/ferretdb to start a stand-in").isEqualTo(ExitCodes.USAGE);
    assertThat(printed.toString(StandardCharsets.UTF_8)).as("the report says nothing").isEmpty();
  }

  @Test
  void itIsASubcommandOfBench() {
    CommandLine bench = Main.commandLine().getSubcommands().get("bench");
    assertThat(bench.getSubcommands()).containsKey("mongodb");
  }
}
