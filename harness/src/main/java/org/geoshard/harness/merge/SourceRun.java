package org.geoshard.harness.merge;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.measure.Interval;
import org.geoshard.harness.measure.IntervalSample;
import org.geoshard.harness.measure.OperationMeter;
import org.geoshard.harness.output.HlogWriters;
import org.geoshard.harness.output.RunFolder;
import org.geoshard.harness.output.TimeseriesWriter;

/**
 * One run folder read back as the intervals that were measured: histograms from the {@code .hlog}
 * files (failed operations' from {@code failed/*.hlog}),
 * files, errors and threads from {@code timeseries.csv}, and the run's {@code run.json} and
 * {@code summary.json}.
 */
record SourceRun(Path folder, JsonNode record, JsonNode summary, List<Interval> intervals) {

  static SourceRun read(Path folder) throws ConfigException, IOException {
    for (String name : List.of(RunFolder.RUN_JSON, RunFolder.SUMMARY_JSON, TimeseriesWriter.FILE_NAME)) {
      if (!Files.isRegularFile(folder.resolve(name))) {
        throw new ConfigException(folder.resolve(name) + " is missing: " + folder + " is not a complete run folder.");
      }
    }
    JsonNode record = readJson(folder.resolve(RunFolder.RUN_JSON));
    JsonNode summary = readJson(folder.resolve(RunFolder.SUMMARY_JSON));
    Map<Long, Row> rows = readTimeseries(folder.resolve(TimeseriesWriter.FILE_NAME));
    TreeMap<Long, Map<String, Histogram>> histograms = readHlogs(folder);
    // Failed operations' latencies (a folder written before they were kept apart has them inside the above).
    TreeMap<Long, Map<String, Histogram>> failed = Files.isDirectory(folder.resolve(HlogWriters.FAILED_DIR))
        ? readHlogs(folder.resolve(HlogWriters.FAILED_DIR)) : new TreeMap<>();
    List<Interval> intervals = new ArrayList<>();
    for (Row row : rows.values()) {
      Map<String, Histogram> byOperation = near(histograms, row.startEpochMs);
      Map<String, Histogram> failedByOperation = near(failed, row.startEpochMs);
      List<IntervalSample> samples = new ArrayList<>();
      for (Map.Entry<String, Long> errors : row.errors.entrySet()) {
        Histogram histogram = byOperation.getOrDefault(errors.getKey(), OperationMeter.newHistogram());
        Histogram failures = failedByOperation.getOrDefault(errors.getKey(), OperationMeter.newHistogram());
        samples.add(new IntervalSample(errors.getKey(), histogram, failures, errors.getValue()));
      }
      intervals.add(new Interval(row.second, row.startEpochMs, row.startEpochMs + row.intervalMs, row.threads, samples));
    }
    return new SourceRun(folder, record, summary, intervals);
  }

  long startEpochMs() {
    return intervals.isEmpty() ? 0 : intervals.get(0).startEpochMs();
  }

  long endEpochMs() {
    return intervals.isEmpty() ? 0 : intervals.get(intervals.size() - 1).endEpochMs();
  }

  private static JsonNode readJson(Path file) throws ConfigException {
    try {
      return RunFolder.json().readTree(file.toFile());
    } catch (IOException e) {
      throw new ConfigException(file + " is not valid JSON: " + e.getMessage());
    }
  }

  private static final class Row {
    long second;
    long startEpochMs;
    long intervalMs;
    int threads;
    final Map<String, Long> errors = new LinkedHashMap<>();
  }

  private static Map<Long, Row> readTimeseries(Path file) throws IOException, ConfigException {
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    if (lines.isEmpty() || !lines.get(0).equals(TimeseriesWriter.HEADER)) {
      throw new ConfigException(file + " line 1: not the header of a geoshard time series.");
    }
    Map<Long, Row> rows = new TreeMap<>();
    for (int i = 1; i < lines.size(); i++) {
      String[] cells = lines.get(i).split(",", -1);
      try {
        long second = Long.parseLong(cells[0]);
        Row row = rows.computeIfAbsent(second, s -> new Row());
        row.second = second;
        row.startEpochMs = Long.parseLong(cells[1]);
        row.intervalMs = Long.parseLong(cells[2]);
        row.errors.put(cells[3], Long.parseLong(cells[5]));
        row.threads = Integer.parseInt(cells[12]);
      } catch (RuntimeException e) {
        throw new ConfigException(file + " line " + (i + 1) + ": malformed row (" + e.getMessage() + ").");
      }
    }
    return rows;
  }

  /**
   * The histograms of the interval that starts at {@code startEpochMs}. The logs keep start times as
   * seconds with three decimals, which may come back a millisecond off; intervals are a second apart.
   */
  private static Map<String, Histogram> near(TreeMap<Long, Map<String, Histogram>> byStart, long startEpochMs) {
    Map.Entry<Long, Map<String, Histogram>> floor = byStart.floorEntry(startEpochMs + 2);
    return floor != null && floor.getKey() >= startEpochMs - 2 ? floor.getValue() : Map.of();
  }

  /** Interval histograms of every operation, by the interval's start time. */
  private static TreeMap<Long, Map<String, Histogram>> readHlogs(Path folder) throws IOException, ConfigException {
    TreeMap<Long, Map<String, Histogram>> byStart = new TreeMap<>();
    List<Path> logs;
    try (Stream<Path> files = Files.list(folder)) {
      logs = files.filter(p -> p.getFileName().toString().endsWith(HlogWriters.SUFFIX)).sorted().toList();
    }
    for (Path log : logs) {
      String name = log.getFileName().toString();
      String operation = name.substring(0, name.length() - HlogWriters.SUFFIX.length());
      try (HistogramLogReader reader = new HistogramLogReader(new File(log.toString()))) {
        EncodableHistogram histogram;
        while ((histogram = reader.nextIntervalHistogram()) != null) {
          byStart.computeIfAbsent(histogram.getStartTimeStamp(), s -> new LinkedHashMap<>())
              .put(operation, (Histogram) histogram);
        }
      } catch (RuntimeException e) {
        throw new ConfigException(log + " is not a readable HdrHistogram log: " + e);
      }
    }
    return byStart;
  }
}
