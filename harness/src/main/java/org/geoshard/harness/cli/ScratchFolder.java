package org.geoshard.harness.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A temporary folder a bench runs its phases in (their run folders, logs, a stand-in server's data);
 * closing it deletes it with everything in it.
 */
public final class ScratchFolder implements AutoCloseable {
  private final Path path;

  private ScratchFolder(Path path) {
    this.path = path;
  }

  /** A new empty folder under the system's temporary directory, its name starting with {@code prefix}. */
  public static ScratchFolder create(String prefix) throws IOException {
    return new ScratchFolder(Files.createTempDirectory(prefix));
  }

  public Path path() {
    return path;
  }

  public Path resolve(String name) {
    return path.resolve(name);
  }

  /** Deletes the folder and what it holds, deepest first; a folder already gone is fine. */
  @Override
  public void close() throws IOException {
    if (!Files.exists(path)) {
      return;
    }
    List<Path> deepestFirst;
    try (Stream<Path> walk = Files.walk(path)) {
      deepestFirst = walk.sorted(Comparator.reverseOrder()).toList();
    }
    for (Path p : deepestFirst) {
      Files.deleteIfExists(p);
    }
  }
}
