package org.geoshard.harness.output;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import org.geoshard.harness.config.PropertyReader;
import org.geoshard.harness.measure.LatencyStats;
import org.geoshard.harness.ramp.RampResult;
import org.geoshard.harness.ramp.SlaRule;
import org.geoshard.harness.ramp.StepRecord;
import org.geoshard.harness.stats.Plateau;

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
    json.put("succeeded", Math.max(0, result.operations() - result.errors()));
    json.put("throughput", round(result.throughput()));
    json.put("runtimeMs", result.runtimeMs());
    json.put("stopReason", result.stopReason().label());
    json.put("threads", result.threads());
    json.put("threadFailures", result.threadFailures());
    json.put("overall", stats(result.overall()));
    Map<String, Object> perOperation = new LinkedHashMap<>();
    operations.forEach((name, stats) -> {
      Map<String, Object> op = stats(stats);
      op.put("throughput", round(throughput(result, stats)));
      perOperation.put(name, op);
    });
    json.put("perOperation", perOperation);
    RampResult ramp = result.ramp();
    if (ramp != null) {
      Map<String, Object> rampJson = new LinkedHashMap<>();
      rampJson.put("mode", PropertyReader.choiceName(ramp.mode()));
      SlaRule rule = ramp.rule();
      Map<String, Object> sla = new LinkedHashMap<>();
      sla.put("percentile", rule.percentile());
      sla.put("latencyMs", rule.latencyUs() / 1000);
      sla.put("timeoutMs", rule.timeoutUs() / 1000);
      sla.put("maxErrors", rule.maxErrors());
      sla.put("perOperation", rule.perOperation());
      sla.put("rule", rule.kind() == SlaRule.Kind.STUDY_CODE ? "study-code" : "stated");
      sla.put("effectiveLimitUs", rule.effectiveLimitUs());
      rampJson.put("sla", sla);
      List<Map<String, Object>> steps = ramp.steps().stream().map(Summary::step).toList();
      rampJson.put("steps", steps);
      json.put("ramp", rampJson);
      json.put("maxSustainedThroughput", ramp.maxSustainedThroughput() == null ? null : round(ramp.maxSustainedThroughput()));
      json.put("peakStep", ramp.peakStep());
      json.put("peakThreads", ramp.peakThreads());
    }
    if (result.sweep() != null) {
      Map<String, Object> sweep = new LinkedHashMap<>();
      sweep.put("group", result.sweep().group());
      sweep.put("steps", result.sweep().steps().steps().stream().map(Summary::step).toList());
      json.put("sweep", sweep);
    }
    Plateau plateau = result.plateau();
    if (plateau != null) {
      Map<String, Object> p = new LinkedHashMap<>();
      p.put("fromSecond", plateau.fromSecond());
      p.put("toSecond", plateau.toSecond());
      p.put("seconds", plateau.seconds());
      p.put("meanOpsPerSec", round(plateau.meanOpsPerSec()));
      p.put("minOpsPerSec", round(plateau.minOpsPerSec()));
      p.put("maxOpsPerSec", round(plateau.maxOpsPerSec()));
      p.put("ci95Low", finite(plateau.ci95Low()));
      p.put("ci95High", finite(plateau.ci95High()));
      p.put("batchSeconds", plateau.batchSeconds());
      p.put("batches", plateau.batches());
      p.put("batchesIndependent", plateau.batchesIndependent());
      json.put("plateau", p);
    }
    return json;
  }

  private static Map<String, Object> step(StepRecord step) {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("step", step.step());
    s.put("threads", step.threads());
    s.put("offeredOpsPerSec", step.offeredOpsPerSec() == null ? null : round(step.offeredOpsPerSec()));
    s.put("startSecond", step.startSecond());
    s.put("endSecond", step.endSecond());
    s.put("operations", step.operations());
    s.put("errors", step.errors());
    s.put("succeeded", Math.max(0, step.operations() - step.errors()));
    s.put("timeouts", step.timeouts());
    s.put("throughput", round(step.throughput()));
    s.put("p50Us", step.p50Us());
    s.put("p95Us", step.p95Us());
    s.put("p98Us", step.p98Us());
    s.put("p99Us", step.p99Us());
    s.put("maxUs", step.maxUs());
    s.put("withinLatencyPercent", round(step.withinLatencyPercent()));
    s.put("verdict", step.verdict().label());
    Map<String, Object> operations = new LinkedHashMap<>();
    step.perOperation().forEach((name, stats) -> {
      Map<String, Object> op = stats(stats);
      op.put("throughput", round(step.throughput(name)));
      operations.put(name, op);
    });
    s.put("perOperation", operations);
    return s;
  }

  /** JSON has no NaN: an interval that cannot be computed (too few seconds) is null. */
  private static Double finite(double value) {
    return Double.isFinite(value) ? round(value) : null;
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
    if (s.failed() != null) {
      json.put("failed", stats(s.failed()));  // the failed operations' own latencies, never mixed into the above
    }
    return json;
  }

  static String toText(RunResult result, Map<String, LatencyStats> operations) {
    StringBuilder out = new StringBuilder();
    line(out, "OVERALL", "RunTime(ms)", Long.toString(result.runtimeMs()));
    line(out, "OVERALL", "Throughput(ops/sec)", Formats.decimal(result.throughput(), 2));
    line(out, "OVERALL", "Operations", Long.toString(result.operations()));
    line(out, "OVERALL", "Errors", Long.toString(result.errors()));
    line(out, "OVERALL", "Succeeded", Long.toString(Math.max(0, result.operations() - result.errors())));
    line(out, "OVERALL", "Threads", Integer.toString(result.threads()));
    line(out, "OVERALL", "ThreadFailures", Integer.toString(result.threadFailures()));
    line(out, "OVERALL", "StopReason", result.stopReason().label());
    RampResult ramp = result.ramp();
    if (ramp != null) {
      line(out, "OVERALL", "MaxSustainedThroughput(ops/sec)",
          ramp.maxSustainedThroughput() == null ? "none (no step met the rule)" : Formats.decimal(ramp.maxSustainedThroughput(), 2));
      line(out, "OVERALL", "PeakThreads", ramp.peakThreads() == null ? "-" : ramp.peakThreads().toString());
      for (StepRecord step : ramp.steps()) {
        line(out, "RAMP", "Step " + step.step(), step.threads() + " threads"
            + (step.offeredOpsPerSec() == null ? "" : ", offered " + Formats.decimal(step.offeredOpsPerSec(), 1) + " ops/sec")
            + ", " + Formats.decimal(step.throughput(), 2) + " ops/sec, p98 " + step.p98Us() + " us, "
            + Formats.decimal(step.withinLatencyPercent(), 2) + "% within " + ramp.rule().latencyUs() / 1000 + " ms"
            + (ramp.rule().kind() == SlaRule.Kind.STUDY_CODE ? " (study-code rule: under "
                + (ramp.rule().effectiveLimitUs() + 1) / 1_000_000 + " s)" : "") + ", "
            + step.errors() + " errors, " + step.timeouts() + " timeouts, " + step.verdict().label());
      }
    }
    if (result.sweep() != null) {
      for (StepRecord step : result.sweep().steps().steps()) {
        StringBuilder text = new StringBuilder(result.sweep().group()).append(" offered ")
            .append(Formats.decimal(step.offeredOpsPerSec(), 1)).append(" ops/sec");
        step.perOperation().forEach((name, stats) -> text.append(", ").append(name).append(' ')
            .append(Formats.decimal(step.throughput(name), 1)).append(" ops/sec p99 ").append(stats.p99Us()).append(" us"));
        text.append(", ").append(step.verdict().label());
        line(out, "SWEEP", "Step " + step.step(), text.toString());
      }
    }
    Plateau plateau = result.plateau();
    if (plateau != null) {
      line(out, "PLATEAU", "Seconds", plateau.fromSecond() + "-" + plateau.toSecond() + " (" + plateau.seconds() + " s)");
      line(out, "PLATEAU", "Mean(ops/sec)", Formats.decimal(plateau.meanOpsPerSec(), 2));
      line(out, "PLATEAU", "Min(ops/sec)", Formats.decimal(plateau.minOpsPerSec(), 2));
      line(out, "PLATEAU", "Max(ops/sec)", Formats.decimal(plateau.maxOpsPerSec(), 2));
      line(out, "PLATEAU", "CI95(ops/sec)", Double.isFinite(plateau.ci95Low())
          ? Formats.decimal(plateau.ci95Low(), 2) + " to " + Formats.decimal(plateau.ci95High(), 2) + " (batch means, "
              + plateau.batches() + " batches of " + plateau.batchSeconds() + " s)"
          : "n/a (fewer than 10 seconds)");
    }
    operations.forEach((name, s) -> {
      line(out, name, "Operations", Long.toString(s.count()));
      line(out, name, "Throughput(ops/sec)", Formats.decimal(throughput(result, s), 2));
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
      LatencyStats failed = s.failed();
      if (failed != null) {
        // As YCSB reports a failed operation's latencies: a section of its own.
        String section = name + "-FAILED";
        line(out, section, "Operations", Long.toString(failed.count()));
        line(out, section, "AverageLatency(us)", Formats.decimal(failed.meanUs(), 2));
        line(out, section, "50thPercentileLatency(us)", Long.toString(failed.p50Us()));
        line(out, section, "99thPercentileLatency(us)", Long.toString(failed.p99Us()));
        line(out, section, "MaxLatency(us)", Long.toString(failed.maxUs()));
      }
    });
    return out.toString();
  }

  /**
   * One operation's achieved rate, as the overall throughput counts: successful operations per second
   * of the phase (beside a thread group, each class of load's own rate: readers and writers).
   */
  private static double throughput(RunResult result, LatencyStats s) {
    return result.runtimeMs() <= 0 ? 0 : (s.count() - s.errors()) * 1000.0 / result.runtimeMs();
  }

  private static void line(StringBuilder out, String section, String metric, String value) {
    out.append('[').append(section).append("], ").append(metric).append(", ").append(value).append('\n');
  }

  private static double round(double value) {
    return Math.round(value * 100.0) / 100.0;
  }
}
