package org.geoshard.harness.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.geoshard.harness.run.Phase;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code bin/ycsb load|run <binding> [-P file]... [-p key=value]... [-threads N] [-target OPS] [-s]}. */
@Command(mixinStandardHelpOptions = true, sortOptions = false,
    separator = " ",
    description = {"Writes a run folder: run.json, summary.json, summary.txt, timeseries.csv, one .hlog per operation.", ""},
    footer = {"", "Properties: -P files in order, then -p (the last wins), then -threads and -target.",
        "Exit codes: 0 ok, 1 operation errors or failed threads, 2 bad command line or property, 130 interrupted"
            + " (Ctrl-C), 143 terminated (SIGTERM); either way the run folder is written."})
public final class PhaseCommand implements Callable<Integer> {
  private final Phase phase;

  @Parameters(index = "0", paramLabel = "<binding>",
      description = "A registered binding name (basic, noop, mongodb-geo, ...) or the class name of a site.ycsb.DB.")
  String binding;

  @Option(names = "-P", paramLabel = "FILE", description = "A workload properties file; may be repeated, applied in order.")
  List<Path> files = new ArrayList<>();

  @Option(names = "-p", paramLabel = "KEY=VALUE", description = "Sets one property; wins over -P files.")
  List<String> overrides = new ArrayList<>();

  @Option(names = "-threads", paramLabel = "N", description = "Client threads (property threadcount).")
  Integer threads;

  @Option(names = "-target", paramLabel = "OPS", description = "Offered load over all threads in operations per second (property target).")
  Double target;

  @Option(names = "-s", description = "Status lines (always on in geoshard, every status.interval seconds; kept for YCSB users).")
  boolean status;

  @Option(names = "-l", paramLabel = "LABEL", description = "Label of the run folder (property results.label).")
  String label;

  PhaseCommand(Phase phase) {
    this.phase = phase;
  }

  @Override
  public Integer call() {
    List<String> all = new ArrayList<>(overrides);
    if (label != null) {
      all.add("results.label=" + label);
    }
    return new PhaseLauncher(phase).launch(binding, files, all, threads, target);
  }
}
