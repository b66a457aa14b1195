package org.geoshard.harness.merge;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import org.geoshard.harness.output.RunIdentity;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether run folders are clients of one scenario that ran together: of one identity (command,
 * binding, workload, scenario) and overlapping in time. Each difference is one sentence naming it.
 */
final class MergeCheck {
  private static final Logger LOG = LoggerFactory.getLogger(MergeCheck.class);
  /** Scenario properties named in a sentence; more are counted. */
  private static final int NAMED_PROPERTIES = 3;
  /** Scenario properties that restate the workload class and the command, already compared: not said twice. */
  private static final java.util.Set<String> RESTATED = java.util.Set.of("workload", "dotransactions");

  private MergeCheck() {
  }

  /** One sentence per pair of runs that may not be merged; empty when all may. */
  static List<String> problems(List<SourceRun> runs) {
    List<Compared> compared = runs.stream().map(MergeCheck::compared).toList();
    List<String> problems = new ArrayList<>();
    Compared first = compared.get(0);
    for (int i = 1; i < compared.size(); i++) {
      List<String> differences = differences(first, compared.get(i));
      if (!differences.isEmpty()) {
        problems.add("Cannot merge " + first.name + " and " + compared.get(i).name + ": "
            + String.join("; ", differences) + ".");
      }
    }
    for (int i = 0; i < compared.size(); i++) {
      for (int j = i + 1; j < compared.size(); j++) {
        String apart = apart(compared.get(i), compared.get(j));
        if (apart != null) {
          problems.add("Cannot merge " + compared.get(i).name + " and " + compared.get(j).name + ": " + apart + ".");
        }
      }
    }
    return problems;
  }

  /** What is compared of a run: its identity (or the fallback of an old folder) and its time span. */
  private record Compared(String name, RunIdentity identity, String label, Instant start, Instant end) {
  }

  private static Compared compared(SourceRun run) {
    JsonNode record = run.record();
    String name = run.folder().toString();
    RunIdentity identity = RunIdentity.fromJson(record);
    String label = null;
    if (identity == null) {
      // A folder written before identities: the best there is, said once.
      LOG.warn("{} has no identity in run.json (written before identities were): compared by command, binding,"
          + " workload and label only.", name);
      identity = new RunIdentity(record.path("command").asText(), record.at("/binding/name").asText(),
          record.path("workload").asText(), new TreeMap<>(), "");
      label = record.path("label").asText();
    }
    Instant start = instant(record.path("startTime").asText(null), run.startEpochMs());
    Instant end = instant(record.path("endTime").asText(null), run.endEpochMs());
    return new Compared(name, identity, label, start, end);
  }

  private static Instant instant(String text, long fallbackEpochMs) {
    if (text != null) {
      try {
        return Instant.parse(text);
      } catch (DateTimeParseException e) {
        // fall through: the intervals' own times
      }
    }
    return Instant.ofEpochMilli(fallbackEpochMs);
  }

  private static List<String> differences(Compared a, Compared b) {
    List<String> out = new ArrayList<>();
    RunIdentity x = a.identity;
    RunIdentity y = b.identity;
    if (!x.command().equals(y.command())) {
      out.add(b.name + " is a " + y.command() + ", " + a.name + " is a " + x.command());
    }
    if (!x.binding().equals(y.binding())) {
      out.add("the binding differs: " + x.binding() + " in " + a.name + ", " + y.binding() + " in " + b.name);
    }
    if (!x.workload().equals(y.workload())) {
      out.add("the workload differs: " + x.workload() + " in " + a.name + ", " + y.workload() + " in " + b.name);
    }
    if (a.label != null || b.label != null) {
      if (!Objects.equals(a.label, b.label)) {
        out.add("the label differs: " + a.label + " in " + a.name + ", " + b.label + " in " + b.name);
      }
    } else {
      out.addAll(scenarioDifferences(a, b));
    }
    return out;
  }

  private static List<String> scenarioDifferences(Compared a, Compared b) {
    Map<String, String> x = a.identity.scenario();
    Map<String, String> y = b.identity.scenario();
    TreeSet<String> names = new TreeSet<>(x.keySet());
    names.addAll(y.keySet());
    List<String> out = new ArrayList<>();
    int differing = 0;
    for (String name : names) {
      String u = x.get(name);
      String v = y.get(name);
      if (Objects.equals(u, v) || RESTATED.contains(name)) {
        continue;
      }
      if (++differing <= NAMED_PROPERTIES) {
        out.add(name + " differs: " + shown(u) + " in " + a.name + ", " + shown(v) + " in " + b.name);
      }
    }
    if (differing > NAMED_PROPERTIES) {
      out.add((differing - NAMED_PROPERTIES) + " more scenario properties differ");
    }
    return out;
  }

  private static String shown(String value) {
    return value == null ? "unset" : value;
  }

  /** A sentence when the two never ran at the same time, else null. */
  private static String apart(Compared a, Compared b) {
    if (a.end.isBefore(b.start)) {
      return a.name + " ended " + second(a.end) + ", before " + b.name + " started " + second(b.start);
    }
    if (b.end.isBefore(a.start)) {
      return b.name + " ended " + second(b.end) + ", before " + a.name + " started " + second(a.start);
    }
    return null;
  }

  private static String second(Instant instant) {
    return instant.truncatedTo(ChronoUnit.SECONDS).toString();
  }
}
