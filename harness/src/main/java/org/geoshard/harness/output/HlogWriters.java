package org.geoshard.harness.output;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.HdrHistogram.HistogramLogWriter;
import org.geoshard.harness.measure.Interval;
import org.geoshard.harness.measure.IntervalListener;
import org.geoshard.harness.measure.IntervalSample;

/**
 * Writes one HdrHistogram interval log ({@code <OPERATION>.hlog}) per operation, readable by
 * HdrHistogram's own {@code HistogramLogProcessor}. Values are microseconds; the max column of the
 * log is in milliseconds (a value unit ratio of 1000).
 */
public final class HlogWriters implements IntervalListener {
  public static final String SUFFIX = ".hlog";
  /** Microseconds to the milliseconds printed in the log's max column. */
  public static final double MAX_VALUE_UNIT_RATIO = 1000.0;

  private final Path runFolder;
  private final long baseEpochMs;
  private final Map<String, Log> logs = new HashMap<>();

  public HlogWriters(Path runFolder, long baseEpochMs) {
    this.runFolder = runFolder;
    this.baseEpochMs = baseEpochMs;
  }

  @Override
  public void onInterval(Interval interval) throws IOException {
    for (IntervalSample sample : interval.samples()) {
      Log log = logs.get(sample.operation());
      if (log == null) {
        log = open(sample.operation());
        logs.put(sample.operation(), log);
      }
      double start = (interval.startEpochMs() - baseEpochMs) / 1000.0;
      double end = (interval.endEpochMs() - baseEpochMs) / 1000.0;
      log.writer.outputIntervalHistogram(start, end, sample.histogram(), MAX_VALUE_UNIT_RATIO);
      log.stream.flush();
    }
  }

  private Log open(String operation) throws IOException {
    PrintStream stream = new PrintStream(runFolder.resolve(operation + SUFFIX).toFile(), StandardCharsets.US_ASCII);
    HistogramLogWriter writer = new HistogramLogWriter(stream);
    writer.outputComment("[geoshard operation " + operation + ", latency values in microseconds]");
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
  }

  private record Log(PrintStream stream, HistogramLogWriter writer) {
  }
}
