package org.geoshard.harness.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.geoshard.harness.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

class PropertySourcesTest {
  @TempDir
  Path dir;

  @Test
  void filesApplyInOrderThenOverridesThenFlags() throws IOException, ConfigException {
    Path first = Files.writeString(dir.resolve("first"), "a=1\nb=1\nthreadcount=2\n# comment\n");
    Path second = Files.writeString(dir.resolve("second"), "b=2\nc=2\n");
    Properties p = PropertySources.resolve(List.of(first, second), List.of("c=3", "d = x=y", "c=4"), 8, 100.0);
    assertThat(p).containsEntry("a", "1").containsEntry("b", "2").containsEntry("c", "4")
        .containsEntry("d", "x=y").containsEntry("threadcount", "8").containsEntry("target", "100.0");
  }

  @Test
  void reportsEveryBadSourceAtOnce() {
    assertThatThrownBy(() -> PropertySources.resolve(List.of(dir.resolve("nope")), List.of("novalue", "=x"), 0, -1.0))
        .isInstanceOf(ConfigException.class)
        .satisfies(e -> assertThat(((ConfigException) e).problems()).containsExactly(
            "-P " + dir.resolve("nope") + ": no such file.",
            "-p novalue: expected key=value.",
            "-p =x: expected key=value.",
            "-threads 0: must be at least 1.",
            "-target -1.0: must be 0 (no target) or a positive rate in operations per second."));
  }

  @Test
  void labelIsTheLastWorkloadFileName() {
    assertThat(PropertySources.defaultLabel(List.of(Path.of("workloads/geo0s"), Path.of("workloads/geo3s"))))
        .isEqualTo("geo3s");
    assertThat(PropertySources.defaultLabel(List.of())).isEqualTo("default");
  }

  @Test
  void aUtf8FileKeepsItsAccents() throws IOException, ConfigException {
    Path utf8 = Files.write(dir.resolve("utf8"), "# Z\u00fcrich\nlabel=Z\u00fcrich \u2013 Krak\u00f3w\nescaped=\\u00e9\n"
        .getBytes(StandardCharsets.UTF_8));
    Properties p = PropertySources.resolve(List.of(utf8), List.of(), null, null);
    assertThat(p).containsEntry("label", "Z\u00fcrich \u2013 Krak\u00f3w").containsEntry("escaped", "\u00e9");
  }

  @Test
  void aLatin1FileIsReadAsYcsbReadsItWithAWarningNamingTheLine() throws IOException, ConfigException {
    ListAppender<ILoggingEvent> log = new ListAppender<>();
    log.start();
    Logger logger = (Logger) LoggerFactory.getLogger(PropertySources.class);
    logger.addAppender(log);
    String text = "recordcount=10\n# the study's cities\ngeo.label=Z\u00fcrich\n";
    Path latin1 = Files.write(dir.resolve("latin1"), text.getBytes(StandardCharsets.ISO_8859_1));
    try {
      Properties p = PropertySources.resolve(List.of(latin1), List.of(), null, null);
      Properties ycsb = new Properties();
      try (var in = Files.newInputStream(latin1)) {
        ycsb.load(in);
      }
      assertThat(p).isEqualTo(ycsb).containsEntry("geo.label", "Z\u00fcrich");
    } finally {
      logger.detachAppender(log);
    }
    assertThat(log.list).singleElement().satisfies(event -> {
      assertThat(event.getLevel()).isEqualTo(Level.WARN);
      assertThat(event.getFormattedMessage()).isEqualTo("-P " + latin1 + ": line 3 is not UTF-8; the file is read as"
          + " ISO-8859-1 (Latin-1), as YCSB reads property files.");
    });
  }

  @Test
  void aMalformedEscapeIsRefusedNamingItsLine() throws IOException {
    Path bad = Files.writeString(dir.resolve("bad"), "# a comment may say \\uzzzz\na=1\nb=x\\\\u0041\\\n  \\u00e9\n"
        + "path=C:\\\\users\\u12\n");
    assertThatThrownBy(() -> PropertySources.resolve(List.of(bad), List.of(), null, null))
        .isInstanceOf(ConfigException.class)
        .hasMessage("-P " + bad + " line 5: cannot be read as a properties file (Malformed \\uxxxx encoding.).");
  }

  @Test
  void aFileThatIsNotRegularIsNamedAsSuch() {
    Path device = Path.of("/dev/zero");
    assertThat(device).exists();
    assertThatThrownBy(() -> PropertySources.resolve(List.of(device), List.of(), null, null))
        .hasMessage("-P /dev/zero: is not a regular file; give a workload properties file (for example"
            + " workloads/workloada).");
  }
}
