package org.geoshard.postgis.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.geoshard.harness.output.RunFolder;

/** Reads a run folder of {@code bin/ycsb run}: the queries answered, and the rate after the warm-up. */
final class YcsbOutput {
  /**
   * @param queries successful operations of the whole run, its warm-up included
   * @param throughput successful operations per second of the seconds after the warm-up
   * @param errors failed operations
   */
  record Outcome(long queries, double throughput, long errors) {
  }

  private YcsbOutput() {
  }

  static Outcome read(Path runFolder, String operation, int warmupSeconds) throws IOException {
    JsonNode summary = RunFolder.json().readTree(runFolder.resolve("summary.json").toFile());
    List<String> lines = Files.readAllLines(runFolder.resolve("timeseries.csv"));
    List<String> header = List.of(lines.get(0).split(","));
    int second = header.indexOf("second");
    int interval = header.indexOf("intervalMs");
    int op = header.indexOf("operation");
    int ops = header.indexOf("ops");
    int errors = header.indexOf("errors");
    long succeeded = 0;
    long millis = 0;
    for (String line : lines.subList(1, lines.size())) {
      String[] row = line.split(",");
      if (row[op].equals(operation) && Integer.parseInt(row[second]) > warmupSeconds) {
        succeeded += Long.parseLong(row[ops]) - Long.parseLong(row[errors]);
        millis += Long.parseLong(row[interval]);
      }
    }
    if (millis == 0) {
      throw new IOException(runFolder.resolve("timeseries.csv") + " has no " + operation + " second after the "
          + warmupSeconds + " s warm-up.");
    }
    return new Outcome(summary.path("succeeded").asLong(), succeeded * 1000.0 / millis, summary.path("errors").asLong());
  }
}
