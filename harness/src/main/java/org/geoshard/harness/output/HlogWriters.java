package org.geoshard.harness.output;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.HdrHistogram.HistogramLogWriter;
import org.geoshard.harness.measure.Interval;
import org.geoshard.harness.measure.IntervalListener;
import org.geoshard.harness.measure.IntervalSample;

/**
 * Writes one HdrHistogram interval log ({@code <OPERATION>.hlog}) per operation of its successful
 * operations, and one ({@code failed/<OPERATION>.hlog}) of its failed ones from the first interval
 * with a failure on, readable by HdrHistogram's own {@code HistogramLogProcessor}. Values are
 * microseconds; the max column of the log is in milliseconds (a value unit ratio of 1000).
 */
public final class HlogWriters implements IntervalListener {
  public static final String SUFFIX = ".hlog";
  /** The folder of the failed operations' logs, beside the successful ones' (readers that list {@code *.hlog} see only those). */
  public static final String FAILED_DIR = "failed";
  /** Microseconds to the milliseconds printed in the log's max column. */
  public static final double MAX_VALUE_UNIT_RATIO = 1000.0;

  private final Path runFolder;
  private final long baseEpochMs;
  private final Map<String, Log> logs = new HashMap<>();
  private final Map<String, Log> failedLogs = new HashMap<>();

  public HlogWriters(Path runFolder, long baseEpochMs) {
    this.runFolder = runFolder;
    this.baseEpochMs = baseEpochMs;
  }

  @Override
  public void onInterval(Interval interval) throws IOException {
    double start = (interval.startEpochMs() - baseEpochMs) / 1000.0;
    double end = (interval.endEpochMs() - baseEpochMs) / 1000.0;
    for (IntervalSample sample : interval.samples()) {
      Log log = logs.get(sample.operation());
      if (log == null) {
        log = open(runFolder, sample.operation(), "");
        logs.put(sample.operation(), log);
      }
      log.write(start, end, sample.histogram());
      Log failed = failedLogs.get(sample.operation());
      if (failed == null && sample.failed().getTotalCount() > 0) {
        Files.createDirectories(runFolder.resolve(FAILED_DIR));
        failed = open(runFolder.resolve(FAILED_DIR), sample.operation(), "failed ");
        failedLogs.put(sample.operation(), failed);
      }
      if (failed != null) {
        failed.write(start, end, sample.failed());
      }
    }
  }

  private Log open(Path folder, String operation, String kind) throws IOException {
    PrintStream stream = new PrintStream(folder.resolve(operation + SUFFIX).toFile(), StandardCharsets.US_ASCII);
    HistogramLogWriter writer = new HistogramLogWriter(stream);
    writer.outputComment("[geoshard " + kind + "operation " + operation + ", latency values in microseconds]");
    writer.outputLogFormatVersion();
    writer.outputStartTime(baseEpochMs);
    writer.setBaseTime(baseEpochMs);
    writer.outputBaseTime(baseEpochMs);
    writer.outputLegend();
    return new Log(stream, writer);
  }

  @Override
  public void close() {
    logs.values().forEach(log -> log.writer.close());
    failedLogs.values().forEach(log -> log.writer.close());
  }

  private record Log(PrintStream stream, HistogramLogWriter writer) {
    void write(double start, double end, org.HdrHistogram.Histogram histogram) {
      writer.outputIntervalHistogram(start, end, histogram, MAX_VALUE_UNIT_RATIO);
      stream.flush();
    }
  }
}
