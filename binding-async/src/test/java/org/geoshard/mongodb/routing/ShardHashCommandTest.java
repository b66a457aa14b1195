package org.geoshard.mongodb.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.geoshard.harness.cli.Main;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code bin/ycsb shard-hash}: contributed to the command line, prints what convertShardKeyToHashed prints. */
class ShardHashCommandTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return new CommandLine(new ShardHashCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8))).execute(args);
  }

  @Test
  void printsTheHashOfEachValue() {
    assertThat(run("42", "\"abc\"", "ObjectId(\"010203040506070809101112\")", "{}", "NumberLong(1)", "1.9")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8).lines()).containsExactly("-944302157085130861", "8478485326885698097",
        "-5588663249627035708", "7980500913326740417", "5902408780260971510", "5902408780260971510");
  }

  @Test
  void jsonOutputAndBadInput() {
    assertThat(run("--json", "\"\"")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8).trim())
        .isEqualTo("{\"value\": \"\", \"hashed\": {\"$numberLong\": \"2049396243249673340\"}}");
    assertThat(run("abc")).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("not a MongoDB extended JSON value").contains("'\"abc\"'");
    assertThat(run("1, 2")).isEqualTo(2);
  }

  @Test
  void isASubcommandOfBinYcsb() {
    assertThat(Main.commandLine().getSubcommands()).containsKey("shard-hash");
  }
}
