package org.geoshard.harness.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.geoshard.harness.measure.LatencyStats;
import org.geoshard.harness.output.Formats;

/**
 * One line per operation whose failures include NOT_FOUND (the binding found no record under the key),
 * with the likely cause: YCSB counts them as errors like any other, and a run whose {@code recordcount}
 * is above what was loaded otherwise shows only an error count. The harness knows the statuses, not the
 * database: the cause is a question, from the properties the keys are drawn from.
 */
final class NotFoundNotice {
  private static final Map<String, String> NOUNS = Map.of("READ", "reads", "UPDATE", "updates", "DELETE", "deletes",
      "SCAN", "scans", "INSERT", "inserts");

  private NotFoundNotice() {
  }

  /**
   * @param notFound NOT_FOUND failures per operation
   * @param perOperation the phase's counts per operation (successes and failures)
   */
  static List<String> lines(Map<String, Long> notFound, Map<String, LatencyStats> perOperation, Properties properties) {
    List<String> lines = new ArrayList<>();
    notFound.forEach((operation, count) -> {
      LatencyStats stats = perOperation.get(operation);
      long total = stats == null ? count : Math.max(count, stats.count());
      lines.add(operation + ": " + Formats.grouped(count) + " of " + Formats.grouped(total) + " "
          + NOUNS.getOrDefault(operation, operation + " operations")
          + " found no record (NOT_FOUND, counted as errors): " + cause(properties));
    });
    return lines;
  }

  private static String cause(Properties properties) {
    String recordCount = properties.getProperty(RunSettings.RECORD_COUNT);
    if (recordCount != null && !recordCount.isBlank()) {
      return "recordcount (" + recordCount.trim() + ") is above what was loaded?";
    }
    return "were the records loaded (with the recordcount and insertstart of this run)?";
  }
}
