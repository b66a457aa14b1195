package org.geoshard.harness.output;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.geoshard.harness.measure.LatencyStats;
import org.geoshard.harness.run.RunResult;

/** Writes {@code summary.json} (for programs) and {@code summary.txt} (for people, YCSB's style). */
public final class Summary {
  private Summary() {
  }

  public static void write(RunFolder folder, RunResult result, Map<String, LatencyStats> orderedOperations)
      throws IOException {
    folder.writeJson(RunFolder.SUMMARY_JSON, toJson(result, orderedOperations));
    folder.writeText(RunFolder.SUMMARY_TXT, toText(result, orderedOperations));
  }

  static Map<String, Object> toJson(RunResult result, Map<String, LatencyStats> operations) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("operations", result.operations());
    json.put("errors", result.errors());
    json.put("throughput", round(result.throughput()));
    json.put("runtimeMs", result.runtimeMs());
    json.put("stopReason", result.stopReason().label());
    json.put("threads", result.threads());
    json.put("threadFailures", result.threadFailures());
    json.put("overall", stats(result.overall()));
    Map<String, Object> perOperation = new LinkedHashMap<>();
    operations.forEach((name, stats) -> perOperation.put(name, stats(stats)));
    json.put("perOperation", perOperation);
    return json;
  }

  private static Map<String, Object> stats(LatencyStats s) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("count", s.count());
    json.put("errors", s.errors());
    json.put("meanUs", round(s.meanUs()));
    json.put("minUs", s.minUs());
    json.put("p50Us", s.p50Us());
    json.put("p95Us", s.p95Us());
    json.put("p98Us", s.p98Us());
    json.put("p99Us", s.p99Us());
    json.put("p999Us", s.p999Us());
    json.put("maxUs", s.maxUs());
    return json;
  }

  static String toText(RunResult result, Map<String, LatencyStats> operations) {
    StringBuilder out = new StringBuilder();
    line(out, "OVERALL", "RunTime(ms)", Long.toString(result.runtimeMs()));
    line(out, "OVERALL", "Throughput(ops/sec)", Formats.decimal(result.throughput(), 2));
    line(out, "OVERALL", "Operations", Long.toString(result.operations()));
    line(out, "OVERALL", "Errors", Long.toString(result.errors()));
    line(out, "OVERALL", "Threads", Integer.toString(result.threads()));
    line(out, "OVERALL", "ThreadFailures", Integer.toString(result.threadFailures()));
    line(out, "OVERALL", "StopReason", result.stopReason().label());
    operations.forEach((name, s) -> {
      line(out, name, "Operations", Long.toString(s.count()));
      line(out, name, "AverageLatency(us)", Formats.decimal(s.meanUs(), 2));
      line(out, name, "MinLatency(us)", Long.toString(s.minUs()));
      line(out, name, "MaxLatency(us)", Long.toString(s.maxUs()));
      line(out, name, "50thPercentileLatency(us)", Long.toString(s.p50Us()));
      line(out, name, "95thPercentileLatency(us)", Long.toString(s.p95Us()));
      line(out, name, "98thPercentileLatency(us)", Long.toString(s.p98Us()));
      line(out, name, "99thPercentileLatency(us)", Long.toString(s.p99Us()));
      line(out, name, "99.9thPercentileLatency(us)", Long.toString(s.p999Us()));
      line(out, name, "Return=OK", Long.toString(s.count() - s.errors()));
      line(out, name, "Return=ERROR", Long.toString(s.errors()));
    });
    return out.toString();
  }

  private static void line(StringBuilder out, String section, String metric, String value) {
    out.append('[').append(section).append("], ").append(metric).append(", ").append(value).append('\n');
  }

  private static double round(double value) {
    return Math.round(value * 100.0) / 100.0;
  }
}
