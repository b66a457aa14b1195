package org.geoshard.geo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.geoshard.geo.TestCities;
import org.geoshard.geo.dataset.DatasetFormula;
import org.geoshard.geo.dataset.Placement;
import org.geoshard.geo.dataset.RestaurantDataset;
import org.geoshard.geo.dataset.RestaurantJson;
import org.geoshard.harness.cli.ExitCodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

class GeoDatasetCommandTest {
  @TempDir
  Path dir;

  private Path cities() throws Exception {
    StringBuilder tsv = new StringBuilder("geonameid\tname\tcountry\tlatitude\tlongitude\tpopulation\n");
    TestCities.FIVE.forEach(c -> tsv.append(c.geonameId()).append('\t').append(c.name()).append('\t').append(c.country())
        .append('\t').append(c.latitude()).append('\t').append(c.longitude()).append('\t').append(c.population()).append('\n'));
    return Files.writeString(dir.resolve("cities.tsv"), tsv.toString());
  }

  private int run(ByteArrayOutputStream out, String... args) {
    return new CommandLine(new GeoDatasetCommand(new PrintStream(out, true, StandardCharsets.UTF_8))).execute(args);
  }

  @Test
  void statsDescribeTheDataset() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code = run(out, "--stats", "-p", "geo.cities=" + cities(), "-p", "geo.scale=0.01");
    assertThat(code).isEqualTo(ExitCodes.OK);
    JsonNode stats = new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8));
    RestaurantDataset dataset = new RestaurantDataset(TestCities.FIVE, 0.01, Placement.UNIFORM_DISTANCE, 1);
    long bytes = 0;
    for (long k = 0; k < dataset.size(); k++) {
      bytes += RestaurantJson.toJson(dataset.restaurant(k)).getBytes(StandardCharsets.UTF_8).length + 1;
    }
    assertThat(stats.get("cities").asInt()).isEqualTo(5);
    assertThat(stats.get("restaurants").asLong()).isEqualTo(dataset.size());
    assertThat(stats.get("minRadius").asInt()).isEqualTo(1_000);
    assertThat(stats.get("maxRadius").asInt()).isEqualTo(DatasetFormula.MAX_RADIUS_METERS);
    assertThat(stats.get("bytes").asLong()).isEqualTo(bytes);
  }

  @Test
  void outWritesOneImportableDocumentPerLine() throws Exception {
    Path file = dir.resolve("out/restaurants.jsonl.gz");
    int code = run(new ByteArrayOutputStream(), "--out", file.toString(), "-p", "geo.cities=" + cities(),
        "-p", "geo.scale=0.005", "-p", "seed=3");
    assertThat(code).isEqualTo(ExitCodes.OK);
    RestaurantDataset dataset = new RestaurantDataset(TestCities.FIVE, 0.005, Placement.UNIFORM_DISTANCE, 3);
    try (BufferedReader in = new BufferedReader(new InputStreamReader(new GZIPInputStream(Files.newInputStream(file)),
        StandardCharsets.UTF_8))) {
      List<String> lines = in.lines().toList();
      assertThat(lines).hasSize((int) dataset.size());
      assertThat(lines.get(17)).isEqualTo(RestaurantJson.toJson(dataset.restaurant(17)));
      assertThat(new ObjectMapper().readTree(lines.get(0)).get("_id").asLong()).isZero();
    }
  }

  @Test
  void badInputExitsTwo() throws Exception {
    assertThat(run(new ByteArrayOutputStream(), "--stats", "-p", "geo.scael=0.1")).isEqualTo(ExitCodes.USAGE);
    assertThat(run(new ByteArrayOutputStream(), "--stats", "-p", "geo.cities=" + dir.resolve("none.tsv")))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(run(new ByteArrayOutputStream(), "--stats", "--out", "x.jsonl")).isEqualTo(ExitCodes.USAGE);
    Path file = dir.resolve("never.jsonl.gz");
    assertThat(run(new ByteArrayOutputStream(), "--out", file.toString(), "--threads", "0")).isEqualTo(ExitCodes.USAGE);
    assertThat(run(new ByteArrayOutputStream(), "--out", file.toString(), "--level", "10")).isEqualTo(ExitCodes.USAGE);
    assertThat(run(new ByteArrayOutputStream(), "--out", dir.resolve("never.jsonl").toString(), "--level", "1"))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(dir.resolve("never.jsonl")).doesNotExist();
    assertThat(file).doesNotExist();
  }

  @Test
  void threadsAndLevelChangeOnlyTheCompressedBytes() throws Exception {
    Path one = dir.resolve("one.jsonl.gz");
    Path three = dir.resolve("three.jsonl.gz");
    Path plain = dir.resolve("plain.jsonl");
    String cities = "geo.cities=" + cities();
    assertThat(run(new ByteArrayOutputStream(), "--out", one.toString(), "--threads", "1", "--level", "1", "-p", cities,
        "-p", "geo.scale=0.02")).isEqualTo(ExitCodes.OK);
    assertThat(run(new ByteArrayOutputStream(), "--out", three.toString(), "--threads", "3", "--level", "9", "-p", cities,
        "-p", "geo.scale=0.02")).isEqualTo(ExitCodes.OK);
    assertThat(run(new ByteArrayOutputStream(), "--out", plain.toString(), "--threads", "2", "-p", cities,
        "-p", "geo.scale=0.02")).isEqualTo(ExitCodes.OK);
    byte[] expected = Files.readAllBytes(plain);
    assertThat(expected).isNotEmpty();
    try (var in = new GZIPInputStream(Files.newInputStream(one))) {
      assertThat(in.readAllBytes()).isEqualTo(expected);
    }
    try (var in = new GZIPInputStream(Files.newInputStream(three))) {
      assertThat(in.readAllBytes()).isEqualTo(expected);
    }
    assertThat(Files.size(three)).isLessThan(Files.size(one));
    Path zst = dir.resolve("fast.jsonl.zst");
    assertThat(run(new ByteArrayOutputStream(), "--out", zst.toString(), "--level", "1", "-p", cities,
        "-p", "geo.scale=0.02")).isEqualTo(ExitCodes.OK);
    try (var in = new com.github.luben.zstd.ZstdInputStream(Files.newInputStream(zst))) {
      assertThat(in.readAllBytes()).isEqualTo(expected);
    }
  }

  private static ListAppender<ILoggingEvent> capture() {
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    ((Logger) LoggerFactory.getLogger(GeoDatasetCommand.class)).addAppender(appender);
    return appender;
  }

  /** The command's errors: each one sentence, with no stack trace attached. */
  private static List<String> errors(ListAppender<ILoggingEvent> log) {
    ((Logger) LoggerFactory.getLogger(GeoDatasetCommand.class)).detachAppender(log);
    assertThat(log.list).allSatisfy(event -> assertThat(event.getThrowableProxy()).isNull());
    return log.list.stream().filter(event -> event.getLevel() == Level.ERROR).map(ILoggingEvent::getFormattedMessage)
        .toList();
  }

  @Test
  void aFullDeviceIsOneSentenceAndExitsOne() throws Exception {
    Path full = Path.of("/dev/full");
    assertThat(full).exists();
    ListAppender<ILoggingEvent> log = capture();
    int code = run(new ByteArrayOutputStream(), "--out", full.toString(), "-p", "geo.cities=" + cities(),
        "-p", "geo.scale=0.01");
    assertThat(code).isEqualTo(ExitCodes.FAILED);
    assertThat(errors(log)).containsExactly("--out /dev/full cannot be written (no space left on device).");
  }

  @Test
  void aDiskThatFillsUpLeavesNoPartialFileAndTheOldFileIntact() throws Exception {
    Path folder = Files.createDirectories(dir.resolve("exports"));
    Path file = Files.writeString(folder.resolve("restaurants.jsonl.gz"), "the previous export");
    long[] written = new long[1];
    // The first chunk fits, the second finds the disk full.
    AtomicOutput.Opener fillsUp = partial -> new FilterOutputStream(Files.newOutputStream(partial)) {
      @Override
      public void write(byte[] bytes, int offset, int length) throws IOException {
        if (written[0] > 0) {
          throw new IOException("No space left on device");
        }
        written[0] += length;
        out.write(bytes, offset, length);
      }
    };
    ListAppender<ILoggingEvent> log = capture();
    int code = new CommandLine(new GeoDatasetCommand(new PrintStream(new ByteArrayOutputStream(), true,
        StandardCharsets.UTF_8), fillsUp)).execute("--out", file.toString(), "--threads", "2",
        "-p", "geo.cities=" + cities(), "-p", "geo.scale=0.2");
    assertThat(code).isEqualTo(ExitCodes.FAILED);
    assertThat(written[0]).as("a chunk was written before the disk filled up").isPositive();
    assertThat(errors(log)).containsExactly("--out " + file + " cannot be written (no space left on device);"
        + " nothing was left behind.");
    try (var files = Files.list(folder)) {
      assertThat(files).containsExactly(file);
    }
    assertThat(Files.readString(file)).isEqualTo("the previous export");
  }

  @Test
  void aSuccessfulExportLeavesOnlyItsFile() throws Exception {
    Path file = dir.resolve("new/folder/restaurants.jsonl");
    assertThat(run(new ByteArrayOutputStream(), "--out", file.toString(), "-p", "geo.cities=" + cities(),
        "-p", "geo.scale=0.005")).isEqualTo(ExitCodes.OK);
    try (var files = Files.list(file.getParent())) {
      assertThat(files).containsExactly(file);
    }
    assertThat(Files.readAllLines(file)).hasSize((int) new RestaurantDataset(TestCities.FIVE, 0.005,
        Placement.UNIFORM_DISTANCE, 1).size());
  }

  @Test
  void aPathUnderAFileOrAFolderIsRefusedBeforeAnythingStarts() throws Exception {
    Path regular = Files.writeString(dir.resolve("notes.txt"), "not a folder");
    Path under = regular.resolve("sub/restaurants.jsonl.gz");
    ListAppender<ILoggingEvent> log = capture();
    assertThat(run(new ByteArrayOutputStream(), "--out", under.toString(), "-p", "geo.cities=" + cities()))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(run(new ByteArrayOutputStream(), "--out", dir.toString(), "-p", "geo.cities=" + cities()))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(errors(log)).containsExactly(
        "--out " + under + " cannot be created because " + regular + " is a file, not a folder.",
        "--out " + dir + " is a folder; give a file name inside it.");
    assertThat(Files.readString(regular)).isEqualTo("not a folder");
  }
}
