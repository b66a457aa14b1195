package org.geoshard.harness.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class BenchCommandTest {
  @Test
  void printsTheHarnessRatesAndTheKeyChoosersBothWays() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int code = new CommandLine(new BenchCommand(new PrintStream(bytes, true, StandardCharsets.UTF_8)))
        .execute("-threads", "2", "-seconds", "1", "-warmup", "0", "-check-threads", "2");
    String out = bytes.toString(StandardCharsets.UTF_8);
    assertThat(code).as(out).isEqualTo(ExitCodes.OK);
    assertThat(out).containsPattern("(?m)^hdrhistogram +[1-9][0-9,]* +[1-9][0-9,]*$")
        .containsPattern("(?m)^none +[1-9][0-9,]* +[1-9][0-9,]*$");
    // Only that both rates were measured: how they compare depends on the machine's cores.
    Matcher keys = Pattern.compile("key chooser alone, 2 threads: ([0-9.]+) M keys/s .* ([0-9.]+) M keys/s with one generator")
        .matcher(out);
    assertThat(keys.find()).as(out).isTrue();
    assertThat(Double.parseDouble(keys.group(1))).isPositive();
    assertThat(Double.parseDouble(keys.group(2))).isPositive();
  }
}
