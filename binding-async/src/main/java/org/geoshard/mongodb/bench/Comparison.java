package org.geoshard.mongodb.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import org.geoshard.harness.output.Formats;

/**
 * One binding beside the bare driver on the same reads: the runs of each, their means and the two
 * ratios the issue sets goals for (throughput at least {@value #THROUGHPUT_GOAL}×, CPU per operation at
 * most {@value #CPU_GOAL}× the bare driver's).
 */
record Comparison(String binding, List<ClientRun> bindingRuns, List<ClientRun> bareRuns) {
  static final double THROUGHPUT_GOAL = 0.9;
  static final double CPU_GOAL = 1.3;

  Comparison {
    bindingRuns = List.copyOf(bindingRuns);
    bareRuns = List.copyOf(bareRuns);
    if (bindingRuns.isEmpty() || bareRuns.isEmpty()) {
      throw new IllegalArgumentException("A comparison needs at least one run of each client.");
    }
  }

  double throughputRatio() {
    return mean(bindingRuns, ClientRun::throughput) / mean(bareRuns, ClientRun::throughput);
  }

  double cpuRatio() {
    return mean(bindingRuns, ClientRun::cpuMicrosPerOperation) / mean(bareRuns, ClientRun::cpuMicrosPerOperation);
  }

  boolean goalsMet() {
    return throughputRatio() >= THROUGHPUT_GOAL && cpuRatio() <= CPU_GOAL;
  }

  /** One line per client: the mean throughput and CPU per read, then each run's. */
  List<String> meanLines() {
    List<String> lines = new ArrayList<>();
    lines.add(meanLine(binding, bindingRuns));
    lines.add(meanLine(bareLabel(), bareRuns));
    return lines;
  }

  /** {@code mongodb-geo vs bare driver: throughput 0.97×, CPU per operation 1.12×}: the report's last line. */
  String ratioLine() {
    return String.format(Locale.ROOT, "%s vs bare driver: throughput %.2f×, CPU per operation %.2f×", binding,
        throughputRatio(), cpuRatio());
  }

  /** Whether each goal was met, said beside the ratio line. */
  String goalLine() {
    return String.format(Locale.ROOT, "goals: throughput >= %.1f× %s, CPU per operation <= %.1f× %s", THROUGHPUT_GOAL,
        throughputRatio() >= THROUGHPUT_GOAL ? "met" : "NOT met", CPU_GOAL, cpuRatio() <= CPU_GOAL ? "met" : "NOT met");
  }

  private String bareLabel() {
    return "bare " + (binding.equals("mongodb-async") ? "reactive" : "sync");
  }

  private static String meanLine(String client, List<ClientRun> runs) {
    StringBuilder each = new StringBuilder();
    for (ClientRun run : runs) {
      each.append(each.length() == 0 ? "" : ", ").append(Formats.grouped(Math.round(run.throughput())));
    }
    return String.format(Locale.ROOT, "  %-14s %9s reads/s (%s)  %7.1f us CPU per read (%s)", client,
        Formats.grouped(Math.round(mean(runs, ClientRun::throughput))), each,
        mean(runs, ClientRun::cpuMicrosPerOperation), cpuEach(runs));
  }

  private static String cpuEach(List<ClientRun> runs) {
    List<String> values = new ArrayList<>();
    runs.forEach(r -> values.add(String.format(Locale.ROOT, "%.1f", r.cpuMicrosPerOperation())));
    return String.join(", ", values);
  }

  static double mean(List<ClientRun> runs, ToDoubleFunction<ClientRun> figure) {
    return runs.stream().mapToDouble(figure).average().orElse(Double.NaN);
  }
}
