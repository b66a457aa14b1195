package org.geoshard.harness.output;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.geoshard.harness.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunFolderTest {
  @TempDir
  Path dir;

  @Test
  void theReasonAFolderCannotBeWrittenIsTheSystemsOwn() {
    // EROFS reaches Java as a FileSystemException with the system's text: not a permission problem.
    assertThat(RunFolder.reason(new FileSystemException("/mnt/ro/run", null, "Read-only file system")))
        .isEqualTo("read-only file system");
    assertThat(RunFolder.reason(new AccessDeniedException("/root/run"))).isEqualTo("permission denied");
  }

  @Test
  void aFolderGivenByAnotherNameIsCalledByIt() throws Exception {
    Path taken = dir.resolve("taken");
    Files.createDirectories(taken);
    Files.writeString(taken.resolve(RunFolder.RUN_JSON), "{}");
    assertThatThrownBy(() -> RunFolder.create(taken, "Option -o", taken, Instant.now(), "merge", "merged", "merged"))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("Option -o: " + taken + " already holds a run");
  }

  @Test
  void aWritableFolderIsCreatedAndLeftEmpty() throws Exception {
    RunFolder folder = RunFolder.create(dir.resolve("new"), dir, Instant.now(), "run", "noop", "x");
    try (var files = Files.list(folder.path())) {
      assertThat(files).as("the write probe is gone").isEmpty();
    }
  }
}
