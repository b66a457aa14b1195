package org.geoshard.harness.merge;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.HdrHistogram.Histogram;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.measure.Interval;
import org.geoshard.harness.measure.IntervalListener;
import org.geoshard.harness.measure.IntervalSample;
import org.geoshard.harness.measure.OperationMeter;
import org.geoshard.harness.measure.StopReason;
import org.geoshard.harness.measure.Totals;
import org.geoshard.harness.output.HlogWriters;
import org.geoshard.harness.output.RunFolder;
import org.geoshard.harness.output.RunRecord;
import org.geoshard.harness.output.RunResult;
import org.geoshard.harness.output.Summary;
import org.geoshard.harness.output.TimeseriesWriter;
import org.geoshard.harness.ramp.RampMode;
import org.geoshard.harness.ramp.RampResult;
import org.geoshard.harness.ramp.SlaRule;
import org.geoshard.harness.ramp.StepRecord;
import org.geoshard.harness.ramp.Window;
import org.geoshard.harness.stats.Plateau;
import org.geoshard.harness.stats.Timeline;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Merges the run folders of several client machines that ran the same workload at the same time
 * into one run folder, as if one client had done all the work: intervals are aligned on the wall
 * clock (second 1 starts when the earliest client started) and their histograms added, never
 * averaged, so combined throughput and percentiles are exact up to histogram precision. Ramp steps
 * are re-judged on the combined histograms with the first run's rule; their threads add up.
 */
public final class RunMerger {
  private static final Logger LOG = LoggerFactory.getLogger(RunMerger.class);

  private RunMerger() {
  }

  public static RunResult merge(List<Path> sources, Path out) throws ConfigException, IOException {
    return merge(sources, out, false);
  }

  /**
   * @param allowDifferent merge runs of different identity or that never overlapped in time anyway
   *     (what differed is recorded in the merged {@code run.json} as {@code differences})
   * @throws ConfigException a source is not a run folder, or (unless allowed) the runs differ
   */
  public static RunResult merge(List<Path> sources, Path out, boolean allowDifferent) throws ConfigException, IOException {
    if (sources.size() < 2) {
      throw new ConfigException("merge needs at least two run folders, got " + sources.size() + ".");
    }
    List<SourceRun> runs = new ArrayList<>();
    for (Path source : sources) {
      runs.add(SourceRun.read(source));
    }
    // Before anything else, and never lifted: a run added to itself doubles its throughput and threads.
    List<String> repeated = CountedOnce.repeated(runs);
    if (!repeated.isEmpty()) {
      throw new ConfigException(repeated);
    }
    List<String> differences = MergeCheck.problems(runs);
    if (!differences.isEmpty() && !allowDifferent) {
      throw new ConfigException(differences.stream()
          .map(d -> d.substring(0, d.length() - 1) + " (--allow-different merges them anyway).").toList());
    }
    differences.forEach(difference -> LOG.warn("{} (merged anyway: --allow-different)", difference));
    long base = runs.stream().mapToLong(SourceRun::startEpochMs).min().orElseThrow();
    long end = runs.stream().mapToLong(SourceRun::endEpochMs).max().orElseThrow();

    // Each source's step windows, mapped onto merged seconds, and its threads per step.
    List<Interval> merged = alignAndAdd(runs, base);
    RunFolder folder = RunFolder.create(out, "Option -o", out, Instant.ofEpochMilli(base), "merge", "merged",
        "merged");
    Totals totals = new Totals();
    Timeline timeline = new Timeline();
    List<IntervalListener> listeners = List.of(totals, timeline, new TimeseriesWriter(folder.path()),
        new HlogWriters(folder.path(), base));
    for (Interval interval : merged) {
      for (IntervalListener listener : listeners) {
        try {
          listener.onInterval(interval);
        } catch (Exception e) {
          throw new IOException("Could not write the merged interval " + interval.index() + ": " + e.getMessage(), e);
        }
      }
    }
    for (IntervalListener listener : listeners) {
      try {
        listener.close();
      } catch (Exception e) {
        throw new IOException("Could not close " + listener.getClass().getSimpleName() + ": " + e.getMessage(), e);
      }
    }

    RampResult ramp = mergedRamp(runs, merged, base);
    // The warm-up the first run used (derived from its step or length when the user set none).
    long warmup = runs.get(0).record().path("warmupSeconds")
        .asLong(runs.get(0).record().at("/properties/stats.warmup").asLong(5));
    List<Timeline.Point> points = timeline.points();
    Plateau plateau;
    if (ramp == null) {
      plateau = points.isEmpty() ? null : Plateau.of(points, 1, points.get(points.size() - 1).second(), warmup);
    } else {
      StepRecord peak = ramp.peak();
      plateau = peak == null ? null : Plateau.of(points, peak.startSecond(), peak.endSecond(), warmup);
    }
    long runtimeMs = Math.max(1, end - base);
    int threads = runs.stream().mapToInt(r -> r.summary().path("threads").asInt()).sum();
    int failures = runs.stream().mapToInt(r -> r.summary().path("threadFailures").asInt()).sum();
    RunResult result = new RunResult(folder.path(), stopReason(runs), runtimeMs, totals.operations(), totals.errors(),
        totals.succeeded() * 1000.0 / runtimeMs, threads, failures, totals.overall(), totals.perOperation(), ramp,
        plateau, null, null);
    Summary.write(folder, result, totals.perOperation());
    Map<String, Object> record = record(runs, base, end, result);
    if (!differences.isEmpty()) {
      record.put("differences", differences);  // merged although they differ: the report must know
    }
    folder.writeJson(RunFolder.RUN_JSON, record);
    return result;
  }

  /** Adds up the intervals of all sources that fall into the same wall-clock second. */
  private static List<Interval> alignAndAdd(List<SourceRun> runs, long base) {
    TreeMap<Long, Map<String, Histogram>> histograms = new TreeMap<>();
    TreeMap<Long, Map<String, Histogram>> failed = new TreeMap<>();
    TreeMap<Long, Map<String, Long>> errors = new TreeMap<>();
    TreeMap<Long, Integer> threads = new TreeMap<>();
    TreeMap<Long, Long> ends = new TreeMap<>();
    for (SourceRun run : runs) {
      for (Interval interval : run.intervals()) {
        long second = mergedSecond(interval.startEpochMs(), base);
        threads.merge(second, interval.threads(), Integer::sum);
        ends.merge(second, interval.endEpochMs(), Math::max);
        for (IntervalSample sample : interval.samples()) {
          histograms.computeIfAbsent(second, s -> new LinkedHashMap<>())
              .computeIfAbsent(sample.operation(), op -> OperationMeter.newHistogram()).add(sample.histogram());
          failed.computeIfAbsent(second, s -> new LinkedHashMap<>())
              .computeIfAbsent(sample.operation(), op -> OperationMeter.newHistogram()).add(sample.failed());
          errors.computeIfAbsent(second, s -> new LinkedHashMap<>()).merge(sample.operation(), sample.errors(), Long::sum);
        }
      }
    }
    List<Interval> merged = new ArrayList<>();
    for (Map.Entry<Long, Integer> entry : threads.entrySet()) {
      long second = entry.getKey();
      List<IntervalSample> samples = new ArrayList<>();
      Map<String, Histogram> byOperation = histograms.getOrDefault(second, Map.of());
      Map<String, Histogram> failedByOperation = failed.getOrDefault(second, Map.of());
      Map<String, Long> errorsByOperation = errors.getOrDefault(second, Map.of());
      byOperation.forEach((op, h) -> samples.add(new IntervalSample(op, h,
          failedByOperation.getOrDefault(op, OperationMeter.newHistogram()), errorsByOperation.getOrDefault(op, 0L))));
      long start = base + (second - 1) * 1000;
      merged.add(new Interval(second, start, Math.max(start + 1, Math.min(ends.get(second), start + 1000)),
          entry.getValue(), samples));
    }
    return merged;
  }

  /** Second 1 is [base, base + 1 s); a client's interval belongs to the second its start is nearest to. */
  static long mergedSecond(long startEpochMs, long base) {
    return Math.floorDiv(startEpochMs - base + 500, 1000) + 1;
  }

  private static RampResult mergedRamp(List<SourceRun> runs, List<Interval> merged, long base) {
    JsonNode firstRamp = runs.get(0).summary().get("ramp");
    if (firstRamp == null || firstRamp.isNull()) {
      return null;
    }
    JsonNode sla = firstRamp.get("sla");
    SlaRule rule = new SlaRule(sla.get("percentile").asDouble(), sla.get("latencyMs").asLong() * 1000,
        sla.get("timeoutMs").asLong() * 1000, sla.get("maxErrors").asLong(), sla.path("perOperation").asBoolean(false),
        "study-code".equals(sla.path("rule").asText("stated")) ? SlaRule.Kind.STUDY_CODE : SlaRule.Kind.STATED);
    RampMode mode = "rate".equals(firstRamp.get("mode").asText()) ? RampMode.RATE : RampMode.THREADS;
    long firstStart = runs.get(0).startEpochMs();
    int stepCount = Integer.MAX_VALUE;
    for (SourceRun run : runs) {
      stepCount = Math.min(stepCount, run.summary().at("/ramp/steps").size());
    }
    List<StepRecord> steps = new ArrayList<>();
    for (int i = 0; i < stepCount; i++) {
      JsonNode step = firstRamp.get("steps").get(i);
      // The first run's step window, moved onto the merged clock.
      long from = mergedSecond(firstStart + (step.get("startSecond").asLong() - 1) * 1000, base);
      long to = mergedSecond(firstStart + (step.get("endSecond").asLong() - 1) * 1000, base);
      int threads = 0;
      double offered = 0;
      boolean complete = true;
      for (SourceRun run : runs) {
        JsonNode s = run.summary().at("/ramp/steps").get(i);
        threads += s.get("threads").asInt();
        offered += s.path("offeredOpsPerSec").asDouble(0);
        complete &= !"partial".equals(s.get("verdict").asText());
      }
      Window window = new Window();
      merged.stream().filter(m -> m.index() >= from && m.index() <= to).forEach(window::add);
      steps.add(window.close(i + 1, threads, mode == RampMode.RATE ? offered : null, rule, complete));
    }
    return RampResult.of(mode, rule, steps);
  }

  /** The reason of the client that stopped first: from then on, the load was no longer the merged load. */
  private static StopReason stopReason(List<SourceRun> runs) {
    SourceRun first = runs.stream().min((a, b) -> Long.compare(a.endEpochMs(), b.endEpochMs())).orElseThrow();
    String label = first.summary().path("stopReason").asText("completed");
    for (StopReason reason : StopReason.values()) {
      if (reason.label().equals(label)) {
        return reason;
      }
    }
    return StopReason.COMPLETED;
  }

  private static Map<String, Object> record(List<SourceRun> runs, long base, long end, RunResult result) {
    JsonNode first = runs.get(0).record();
    Map<String, Object> record = new LinkedHashMap<>();
    record.put("command", "merge");
    record.put(RunRecord.RUN_UUID, UUID.randomUUID().toString());  // the merged folder is a run of its own
    record.put("binding", RunFolder.json().convertValue(first.get("binding"), Object.class));
    record.put("workload", first.path("workload").asText());
    record.put("label", first.path("label").asText());
    record.put("status", "finished");
    List<Map<String, Object>> sources = new ArrayList<>();
    for (SourceRun run : runs) {
      Map<String, Object> source = new LinkedHashMap<>();
      source.put("folder", run.folder().toString());
      if (run.record().hasNonNull(RunRecord.RUN_UUID)) {
        source.put(RunRecord.RUN_UUID, run.record().get(RunRecord.RUN_UUID).asText());
      }
      source.put("identityKey", CountedOnce.identityOf(run.record()));
      source.put("command", run.record().path("command").asText());
      source.put("host", RunFolder.json().convertValue(run.record().get("host"), Object.class));
      source.put("startTime", run.record().path("startTime").asText());
      source.put("stopReason", run.summary().path("stopReason").asText());
      if (run.record().path("sources").isArray()) {
        // A merged folder merged again: the runs in it, so that none of them can be added a second time.
        source.put("sources", RunFolder.json().convertValue(run.record().get("sources"), Object.class));
      }
      sources.add(source);
    }
    record.put("sources", sources);
    record.put("properties", RunFolder.json().convertValue(first.get("properties"), Object.class));
    if (first.has("identity")) {
      record.put("identity", RunFolder.json().convertValue(first.get("identity"), Object.class));
    }
    record.put("versions", RunFolder.json().convertValue(first.get("versions"), Object.class));
    record.put("threads", result.threads());
    record.put("startTime", Instant.ofEpochMilli(base).toString());
    record.put("endTime", Instant.ofEpochMilli(end).toString());
    record.put("stopReason", result.stopReason().label());
    record.put("runtimeMs", result.runtimeMs());
    return record;
  }
}
