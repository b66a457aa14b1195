package org.geoshard.geo.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicOutputTest {
  @TempDir
  Path dir;

  @Test
  void reasonsAreTheSystemsInWordsThatFitASentence() {
    assertThat(AtomicOutput.reason(new AccessDeniedException("/x"))).isEqualTo("permission denied");
    assertThat(AtomicOutput.reason(new FileSystemException("/x", null, "Read-only file system")))
        .isEqualTo("read-only file system");
    assertThat(AtomicOutput.reason(new IOException("No space left on device"))).isEqualTo("no space left on device");
    assertThat(AtomicOutput.reason(new NoSuchFileException("/x"))).isEqualTo("no such file or folder");
  }

  @Test
  void aFailedOpenIsOneSentenceAndLeavesNothing() throws Exception {
    AtomicOutput denied = new AtomicOutput("--out", file -> {
      throw new AccessDeniedException(file.toString());
    });
    Path target = dir.resolve("restaurants.jsonl");
    assertThatThrownBy(() -> denied.write(target, out -> 0))
        .isInstanceOfSatisfying(AtomicOutput.OutputException.class, e -> assertThat(e.usage()).isFalse())
        .hasMessage("--out " + target + " cannot be written (permission denied); nothing was left behind.");
    try (var files = Files.list(dir)) {
      assertThat(files).isEmpty();
    }
  }

  @Test
  void aLinkedTargetIsReplacedBehindItsLink() throws Exception {
    Path real = Files.writeString(Files.createDirectories(dir.resolve("data")).resolve("real.jsonl"), "old");
    Path link = Files.createSymbolicLink(dir.resolve("link.jsonl"), real);
    long written = new AtomicOutput("--out").write(link, out -> {
      out.write("new".getBytes(StandardCharsets.UTF_8));
      return 3L;
    });
    assertThat(written).isEqualTo(3);
    assertThat(Files.isSymbolicLink(link)).isTrue();
    assertThat(Files.readString(real)).isEqualTo("new");
  }
}
