package org.geoshard.harness.observe;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * Writes {@code servers.csv}, long form: {@code time_s,node,role,metric,value}, one row per metric and
 * reading, flushed after every round so that a crash keeps what was sampled. {@code time_s} is seconds
 * since second 0 of {@code timeseries.csv} (a reading at 3.2 s falls in that file's second 4).
 */
final class ServersCsv implements AutoCloseable {
  static final String FILE_NAME = "servers.csv";
  static final String HEADER = "time_s,node,role,metric,value";

  private final BufferedWriter out;

  ServersCsv(Path runFolder) throws IOException {
    out = Files.newBufferedWriter(runFolder.resolve(FILE_NAME), StandardCharsets.UTF_8);
    out.write(HEADER);
    out.newLine();
    out.flush();
  }

  void write(double timeSeconds, String node, String role, Map<String, Double> metrics) throws IOException {
    String prefix = String.format(Locale.US, "%.3f", timeSeconds) + "," + field(node) + "," + field(role) + ",";
    for (Map.Entry<String, Double> metric : metrics.entrySet()) {
      Double value = metric.getValue();
      if (value == null || value.isNaN() || value.isInfinite()) {
        continue;
      }
      out.write(prefix + field(metric.getKey()) + "," + number(value));
      out.newLine();
    }
  }

  void flush() throws IOException {
    out.flush();
  }

  @Override
  public void close() throws IOException {
    out.close();
  }

  private static String number(double value) {
    return value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value)
        : Double.toString(value);
  }

  /** RFC 4180 quoting where a name needs it (a device or table name is the user's). */
  private static String field(String text) {
    if (text.indexOf(',') < 0 && text.indexOf('"') < 0 && text.indexOf('\n') < 0) {
      return text;
    }
    return "\"" + text.replace("\"", "\"\"") + "\"";
  }
}
