package org.geoshard.harness.cli;

import java.io.IOException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.config.UnknownProperties;
import org.geoshard.harness.run.RunSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the effective properties as YCSB does: {@code -P} files in the order given, then
 * {@code -p key=value} (the last one wins), then the {@code -threads} and {@code -target} flags.
 */
public final class PropertySources {
  private static final Logger LOG = LoggerFactory.getLogger(PropertySources.class);

  private PropertySources() {
  }

  public static Properties resolve(List<Path> files, List<String> overrides, Integer threads, Double target)
      throws ConfigException {
    Properties properties = new Properties();
    List<String> problems = new ArrayList<>();
    for (Path file : files) {
      if (Files.isDirectory(file)) {
        problems.add("-P " + file + ": is a directory; give a workload properties file (for example workloads/workloada).");
        continue;
      }
      if (!Files.exists(file)) {
        problems.add("-P " + file + ": no such file.");
        continue;
      }
      if (!Files.isRegularFile(file)) {
        problems.add("-P " + file + ": is not a regular file; give a workload properties file (for example"
            + " workloads/workloada).");
        continue;
      }
      try {
        properties.putAll(load(file));
      } catch (ConfigException e) {
        problems.addAll(e.problems());
      }
    }
    for (String override : overrides) {
      int eq = override.indexOf('=');
      if (eq <= 0) {
        problems.add("-p " + override + ": expected key=value.");
        continue;
      }
      properties.setProperty(override.substring(0, eq).trim(), override.substring(eq + 1).trim());
    }
    if (threads != null) {
      if (threads < 1) {
        problems.add("-threads " + threads + ": must be at least 1.");
      } else {
        properties.setProperty(RunSettings.THREAD_COUNT, Integer.toString(threads));
      }
    }
    if (target != null) {
      if (!(target >= 0)) {
        problems.add("-target " + target + ": must be 0 (no target) or a positive rate in operations per second.");
      } else {
        properties.setProperty(RunSettings.TARGET, Double.toString(target));
      }
    }
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
    return properties;
  }

  /**
   * One {@code -P} file, read as UTF-8 or, when it is not UTF-8, as ISO-8859-1 (Latin-1) with a warning
   * naming the first line that is not: YCSB reads property files as ISO-8859-1 ({@code Properties.load} of
   * a stream), so a Latin-1 file that works with YCSB works here, and a UTF-8 file (what editors write
   * today) keeps its accents, which ISO-8859-1 would garble.
   */
  static Properties load(Path file) throws ConfigException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new ConfigException("-P " + file + ": cannot be read (" + (e instanceof AccessDeniedException
          ? "permission denied" : e.getMessage()) + ").");
    }
    String text;
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer chars = CharBuffer.allocate(bytes.length);
    CoderResult result = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(in, chars, true);
    if (result.isError()) {
      LOG.warn("-P {}: line {} is not UTF-8; the file is read as ISO-8859-1 (Latin-1), as YCSB reads property files.",
          file, lineOf(bytes, in.position()));
      text = new String(bytes, StandardCharsets.ISO_8859_1);
    } else {
      text = chars.flip().toString();
    }
    Properties properties = new Properties();
    try {
      properties.load(new StringReader(text));
    } catch (IOException | IllegalArgumentException e) {
      int line = badEscapeLine(text);
      throw new ConfigException("-P " + file + (line > 0 ? " line " + line : "") + ": cannot be read as a properties"
          + " file (" + e.getMessage() + ").");
    }
    return properties;
  }

  /** The line (from 1) of the byte at {@code offset}. */
  private static int lineOf(byte[] bytes, int offset) {
    int line = 1;
    for (int i = 0; i < offset; i++) {
      line += bytes[i] == '\n' ? 1 : 0;
    }
    return line;
  }

  /**
   * The line of the first {@code \\u} escape without four hexadecimal digits, which {@code Properties.load}
   * refuses without saying where; 0 if none is found. Comment lines are skipped, as the loader skips them.
   */
  static int badEscapeLine(String text) {
    String[] lines = text.split("\r\n|\n|\r", -1);
    boolean continued = false;
    for (int n = 0; n < lines.length; n++) {
      String line = lines[n];
      String stripped = line.stripLeading();
      boolean comment = !continued && (stripped.startsWith("#") || stripped.startsWith("!"));
      int backslashes = 0;
      for (int i = 0; i < line.length(); i++) {
        char c = line.charAt(i);
        if (c != '\\') {
          backslashes = 0;
          continue;
        }
        backslashes++;
        if (!comment && backslashes % 2 == 1 && i + 1 < line.length() && line.charAt(i + 1) == 'u'
            && !isHex4(line, i + 2)) {
          return n + 1;
        }
      }
      continued = !comment && backslashes % 2 == 1;
    }
    return 0;
  }

  private static boolean isHex4(String line, int from) {
    if (from + 4 > line.length()) {
      return false;
    }
    for (int i = from; i < from + 4; i++) {
      if (Character.digit(line.charAt(i), 16) < 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * {@link #resolve} without flags, refusing unknown names under the modules' prefixes too: for
   * commands other than load and run, which check their properties the same way.
   */
  public static Properties resolveChecked(List<Path> files, List<String> overrides) throws ConfigException {
    Properties properties = resolve(files, overrides, null, null);
    UnknownProperties catalogs = UnknownProperties.fromClassPath();
    catalogs.warnings(properties).forEach(warning -> LOG.warn(warning));
    List<String> unknown = catalogs.problems(properties);
    if (!unknown.isEmpty()) {
      throw new ConfigException(unknown);
    }
    return properties;
  }

  /** The label of a run: the name of the last -P file, as YCSB users name runs by workload. */
  public static String defaultLabel(List<Path> files) {
    return files.isEmpty() ? "default" : files.get(files.size() - 1).getFileName().toString();
  }
}
