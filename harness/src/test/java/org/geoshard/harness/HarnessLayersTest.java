package org.geoshard.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The harness's packages in layers, lowest first: a package may use the packages of lower layers only,
 * never one of its own layer or above. {@code api} is the floor (what workloads and bindings implement
 * and call); {@code run} runs a phase with all below it; {@code cli} is the top. Read from the sources,
 * so a new upward import fails here, naming the file and the import.
 */
class HarnessLayersTest {
  /** Lowest first; the packages of one layer are independent of each other. */
  static final List<List<String>> LAYERS = List.of(
      List.of("api"),               // extension points, seeds, secrets masking: imports no harness package
      List.of("config"),            // reading and checking properties, the catalogs' interface
      List.of("measure"),           // meters, latency statistics, intervals, why a run stopped
      List.of("stats"),             // plateau, batch means over the measured seconds
      List.of("ramp"),              // the max-throughput search: settings, rule, controllers
      List.of("output"),            // the run folder's files: run.json, summary, time series, hlogs
      List.of("observe", "binding"),  // what runs beside a phase; the bindings' registry
      List.of("run", "merge"),      // a phase (and the harness's catalog); merging run folders
      List.of("cli"));              // the commands

  private static final Path SOURCES = Path.of("src/main/java/org/geoshard/harness");
  private static final Pattern USE = Pattern.compile("\\borg\\.geoshard\\.harness\\.([a-z][a-z0-9_]*)\\b");

  @Test
  void noPackageUsesOneOfItsOwnLayerOrAbove() throws IOException {
    Map<String, Integer> layerOf = new TreeMap<>();
    for (int i = 0; i < LAYERS.size(); i++) {
      for (String name : LAYERS.get(i)) {
        layerOf.put(name, i);
      }
    }
    List<String> violations = new ArrayList<>();
    List<Path> files;
    try (Stream<Path> walk = Files.walk(SOURCES)) {
      files = walk.filter(path -> path.toString().endsWith(".java")).sorted().toList();
    }
    assertThat(files).as("harness sources under %s", SOURCES.toAbsolutePath()).isNotEmpty();
    for (Path file : files) {
      Path relative = SOURCES.relativize(file);
      String own = relative.getNameCount() > 1 ? relative.getName(0).toString() : "";
      Integer ownLayer = layerOf.get(own);
      if (ownLayer == null) {
        violations.add(relative + ": package '" + own + "' is in no layer of HarnessLayersTest.LAYERS");
        continue;
      }
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      for (int n = 0; n < lines.size(); n++) {
        String line = lines.get(n);
        if (line.startsWith("package ")) {
          continue;
        }
        Matcher m = USE.matcher(line);
        while (m.find()) {
          String used = m.group(1);
          if (used.equals(own)) {
            continue;
          }
          Integer usedLayer = layerOf.get(used);
          if (usedLayer == null) {
            violations.add(relative + ":" + (n + 1) + ": uses package '" + used + "', which is in no layer: "
                + line.strip());
          } else if (usedLayer >= ownLayer) {
            violations.add(relative + ":" + (n + 1) + ": '" + own + "' (layer " + ownLayer + ") uses '" + used
                + "' (layer " + usedLayer + (usedLayer.equals(ownLayer) ? ", the same" : ", above") + "): "
                + line.strip());
          }
        }
      }
    }
    assertThat(violations).as("uses against the layers %s", LAYERS).isEmpty();
  }
}
