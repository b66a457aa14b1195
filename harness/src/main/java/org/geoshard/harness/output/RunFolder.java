package org.geoshard.harness.output;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import org.geoshard.harness.config.ConfigException;

/**
 * The folder one load or run writes, the only interface between measuring and analysing:
 * {@code run.json}, {@code timeseries.csv}, one {@code .hlog} per operation, {@code summary.json},
 * {@code summary.txt}.
 */
public final class RunFolder {
  public static final String RUN_JSON = "run.json";
  public static final String SUMMARY_JSON = "summary.json";
  public static final String SUMMARY_TXT = "summary.txt";
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final Path path;

  private RunFolder(Path path) {
    this.path = path;
  }

  /**
   * Creates the folder: {@code explicit} if given, else
   * {@code <root>/<UTC time>-<command>-<binding>-<label>}.
   *
   * @throws ConfigException when the folder already holds a run, which would be overwritten
   */
  public static RunFolder create(Path explicit, Path root, Instant now, String command, String binding, String label)
      throws ConfigException, IOException {
    return create(explicit, "Property 'results.dir'", root, now, command, binding, label);
  }

  /**
   * As {@link #create(Path, Path, Instant, String, String, String)}, for a folder given by another
   * name than {@code results.dir}: messages about it begin with {@code explicitName} (e.g. "Option -o").
   */
  public static RunFolder create(Path explicit, String explicitName, Path root, Instant now, String command,
      String binding, String label) throws ConfigException, IOException {
    Path path = explicit != null ? explicit
        : root.resolve(STAMP.format(now) + "-" + command + "-" + binding + "-" + label);
    String property = explicit != null ? explicitName : "The run folder";
    if (Files.exists(path) && !Files.isDirectory(path)) {
      throw new ConfigException(property + ": " + path + " is a file, not a folder; choose a folder for the run.");
    }
    if (Files.exists(path.resolve(RUN_JSON))) {
      throw new ConfigException(property + ": " + path + " already holds a run (" + RUN_JSON
          + "); choose another folder so that nothing measured is overwritten.");
    }
    for (Path above = path.toAbsolutePath().getParent(); above != null; above = above.getParent()) {
      if (Files.exists(above)) {
        if (!Files.isDirectory(above)) {
          throw new ConfigException(property + ": " + path + " cannot be created because " + above
              + " is a file, not a folder; choose a folder for the run.");
        }
        break;
      }
    }
    try {
      Files.createDirectories(path);
      // A real write, not Files.isWritable: its failure carries the reason (a read-only file system is
      // not a permission), and root may write where the permission bits say no.
      Files.delete(Files.createTempFile(path, ".write-probe", ".tmp"));
    } catch (IOException e) {
      throw new ConfigException(property + ": " + path + " cannot be created or written (" + reason(e)
          + "); choose a folder you can write.");
    }
    return new RunFolder(path);
  }

  /** The operating system's reason, in lower case as the sentence goes on ("read-only file system"). */
  static String reason(IOException e) {
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof FileSystemException f && f.getReason() != null) {
      return f.getReason().toLowerCase(Locale.ROOT);
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }

  public Path path() {
    return path;
  }

  /** Writes a JSON file atomically (write to a temporary file, then rename). */
  public void writeJson(String fileName, Object value) throws IOException {
    Path target = path.resolve(fileName);
    Path temporary = path.resolve(fileName + ".tmp");
    JSON.writeValue(temporary.toFile(), value);
    Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  public void writeText(String fileName, String text) throws IOException {
    Path target = path.resolve(fileName);
    Path temporary = path.resolve(fileName + ".tmp");
    Files.writeString(temporary, text);
    Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  public static ObjectMapper json() {
    return JSON;
  }
}
