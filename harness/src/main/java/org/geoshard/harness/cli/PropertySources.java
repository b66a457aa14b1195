package org.geoshard.harness.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.config.UnknownProperties;
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
      if (!Files.isRegularFile(file)) {
        problems.add("-P " + file + ": " + (Files.exists(file)
            ? "not a regular file (a device, pipe or socket); give a workload properties file." : "no such file."));
        continue;
      }
      try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        Properties fromFile = new Properties();
        fromFile.load(in);
        properties.putAll(fromFile);
      } catch (IOException | IllegalArgumentException e) {
        problems.add("-P " + file + ": cannot be read as a properties file (" + e.getMessage() + ").");
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
        properties.setProperty("threadcount", Integer.toString(threads));
      }
    }
    if (target != null) {
      if (!(target >= 0)) {
        problems.add("-target " + target + ": must be 0 (no target) or a positive rate in operations per second.");
      } else {
        properties.setProperty("target", Double.toString(target));
      }
    }
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
    return properties;
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
