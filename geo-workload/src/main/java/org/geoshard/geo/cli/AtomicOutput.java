package org.geoshard.geo.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a file that appears whole or not at all: the bytes go to a temporary file beside it
 * ({@code NAME.<pid>.partial}, in the same folder so that the final rename is atomic), renamed to the
 * target once written and closed. A failed write, an interrupted one or Ctrl-C (a shutdown hook) deletes
 * the temporary file, so a full disk never leaves a truncated file that looks like a dataset. A target
 * that exists and is not a regular file (a device such as {@code /dev/null}, a named pipe) is written in
 * place: it cannot be renamed over, and it holds no earlier data to protect.
 *
 * <p>Problems are one sentence naming the path and the reason ({@link OutputException}).
 */
final class AtomicOutput {
  private static final Logger LOG = LoggerFactory.getLogger(AtomicOutput.class);

  /** What fills the file. */
  @FunctionalInterface
  interface Body<T> {
    T writeTo(OutputStream out) throws IOException;
  }

  /** Opens a new file for writing; tests replace it to fail the way a full disk does. */
  @FunctionalInterface
  interface Opener {
    OutputStream open(Path file) throws IOException;
  }

  /** The file cannot be written: the message is one sentence; {@link #usage()} is true for a bad path. */
  static final class OutputException extends Exception {
    private final boolean usage;

    OutputException(String message, boolean usage) {
      super(message);
      this.usage = usage;
    }

    /** True when the path itself is wrong (a folder, or under a file): the user's mistake, exit 2. */
    boolean usage() {
      return usage;
    }
  }

  static final Opener NEW_FILE = file -> Files.newOutputStream(file, StandardOpenOption.CREATE_NEW,
      StandardOpenOption.WRITE);

  private final String label;
  private final Opener opener;

  /**
   * @param label how messages name the target's option, e.g. {@code --out}
   */
  AtomicOutput(String label, Opener opener) {
    this.label = label;
    this.opener = opener;
  }

  AtomicOutput(String label) {
    this(label, NEW_FILE);
  }

  /**
   * Refuses a target that cannot be a file before any work is done: a folder, or a path under a file.
   */
  void checkPath(Path target) throws OutputException {
    if (Files.isDirectory(target)) {
      throw new OutputException(label + " " + target + " is a folder; give a file name inside it.", true);
    }
    for (Path above = target.toAbsolutePath().getParent(); above != null; above = above.getParent()) {
      if (Files.exists(above)) {
        if (!Files.isDirectory(above)) {
          throw new OutputException(label + " " + target + " cannot be created because " + above
              + " is a file, not a folder.", true);
        }
        return;
      }
    }
  }

  /** Writes the target through {@code body}; its result is returned once the file is in place. */
  <T> T write(Path target, Body<T> body) throws OutputException {
    checkPath(target);
    if (Files.exists(target) && !Files.isRegularFile(target)) {
      return writeInPlace(target, body);
    }
    Path real = realTarget(target);
    Path folder = real.getParent();
    try {
      Files.createDirectories(folder);
    } catch (IOException e) {
      throw new OutputException(label + " " + target + ": its folder " + folder + " cannot be created ("
          + reason(e) + ").", false);
    }
    Path partial = folder.resolve(real.getFileName() + "." + ProcessHandle.current().pid() + ".partial");
    Thread cleanup = new Thread(() -> {
      if (Files.exists(partial)) {
        deleteQuietly(partial);
        LOG.warn("{} {} was not written: interrupted, the partial file is deleted.", label, target);
      }
    }, "delete-partial-output");
    Runtime.getRuntime().addShutdownHook(cleanup);
    boolean renamed = false;
    try {
      T result;
      try (OutputStream out = opener.open(partial)) {
        result = body.writeTo(out);
      }
      Files.move(partial, real, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      renamed = true;
      return result;
    } catch (IOException e) {
      throw new OutputException(label + " " + target + " cannot be written (" + reason(e) + "); nothing was left"
          + " behind.", false);
    } finally {
      if (!renamed) {
        deleteQuietly(partial);
      }
      try {
        Runtime.getRuntime().removeShutdownHook(cleanup);
      } catch (IllegalStateException shuttingDown) {
        // Ctrl-C: the hook is deleting the partial file already.
      }
    }
  }

  private <T> T writeInPlace(Path target, Body<T> body) throws OutputException {
    try (OutputStream out = Files.newOutputStream(target, StandardOpenOption.WRITE)) {
      return body.writeTo(out);
    } catch (IOException e) {
      throw new OutputException(label + " " + target + " cannot be written (" + reason(e) + ").", false);
    }
  }

  /** The target with symbolic links resolved, so that the rename replaces the file a link points to, not the link. */
  private static Path realTarget(Path target) {
    Path absolute = target.toAbsolutePath();
    try {
      return Files.exists(absolute) ? absolute.toRealPath() : absolute;
    } catch (IOException e) {
      return absolute;
    }
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      LOG.warn("The partial file {} could not be deleted ({}); delete it by hand.", file, reason(e));
    }
  }

  /** The operating system's reason, in words that fit inside a sentence ("no space left on device"). */
  static String reason(IOException e) {
    String reason;
    if (e instanceof AccessDeniedException) {
      reason = "permission denied";
    } else if (e instanceof NoSuchFileException) {
      reason = "no such file or folder";
    } else if (e instanceof NotDirectoryException) {
      reason = "not a folder";
    } else if (e instanceof FileAlreadyExistsException && ((FileSystemException) e).getReason() == null) {
      reason = "a file of that name exists";
    } else if (e instanceof FileSystemException f && f.getReason() != null) {
      reason = f.getReason();
    } else {
      reason = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }
    return reason.isEmpty() ? reason : reason.substring(0, 1).toLowerCase(Locale.ROOT) + reason.substring(1);
  }
}
