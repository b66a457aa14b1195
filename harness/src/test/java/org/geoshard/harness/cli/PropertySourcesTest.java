package org.geoshard.harness.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.geoshard.harness.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
  void aFileThatIsNotARegularFileIsNamedAsWhatItIs() {
    assertThatThrownBy(() -> PropertySources.resolve(List.of(java.nio.file.Path.of("/dev/zero")), List.of(), null, null))
        .isInstanceOf(ConfigException.class)
        .hasMessage("-P /dev/zero: not a regular file (a device, pipe or socket); give a workload properties file.");
  }
}
