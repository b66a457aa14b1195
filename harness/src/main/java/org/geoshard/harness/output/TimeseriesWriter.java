package org.geoshard.harness.output;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.geoshard.harness.measure.Interval;
import org.geoshard.harness.measure.IntervalListener;
import org.geoshard.harness.measure.IntervalSample;
import org.geoshard.harness.measure.LatencyStats;

/**
 * Writes {@code timeseries.csv}: one row per interval and operation that ran in it, flushed every
 * interval so that a crash keeps what was measured. {@code ops} counts every operation that ended,
 * {@code errors} those that failed, and {@code opsPerSec} only those that succeeded; the latency
 * columns are those of the successful operations (the failed ones' are in {@code failed/*.hlog}).
 */
public final class TimeseriesWriter implements IntervalListener {
  public static final String FILE_NAME = "timeseries.csv";
  public static final String HEADER =
      "second,startEpochMs,intervalMs,operation,ops,errors,opsPerSec,p50Us,p95Us,p98Us,p99Us,maxUs,threads";

  private final BufferedWriter out;

  public TimeseriesWriter(Path runFolder) throws IOException {
    out = Files.newBufferedWriter(runFolder.resolve(FILE_NAME), StandardCharsets.UTF_8);
    out.write(HEADER);
    out.newLine();
    out.flush();
  }

  @Override
  public void onInterval(Interval interval) throws IOException {
    for (IntervalSample sample : interval.samples()) {
      LatencyStats stats = LatencyStats.of(sample.histogram(), sample.failed(), sample.errors());
      double opsPerSec = sample.ok() * 1000.0 / interval.durationMs();
      out.write(interval.index() + "," + interval.startEpochMs() + "," + interval.durationMs() + ","
          + sample.operation() + "," + stats.count() + "," + stats.errors() + ","
          + Formats.decimal(opsPerSec, 1) + "," + stats.p50Us() + "," + stats.p95Us() + ","
          + stats.p98Us() + "," + stats.p99Us() + "," + stats.maxUs() + "," + interval.threads());
      out.newLine();
    }
    out.flush();
  }

  @Override
  public void close() throws IOException {
    out.close();
  }
}
