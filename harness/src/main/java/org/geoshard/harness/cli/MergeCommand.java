package org.geoshard.harness.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.merge.RunMerger;
import org.geoshard.harness.output.RunFolder;
import org.geoshard.harness.output.RunResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code bin/ycsb merge RUN_DIR... -o OUT}: several clients' run folders as one. */
@Command(name = "merge", mixinStandardHelpOptions = true, separator = " ",
    header = "Merges the run folders of several client machines into one run folder.",
    description = {"Intervals are aligned on the wall clock and their histograms added (never averaged): the merged",
        "throughput and percentiles are those of all clients together. Ramp steps are re-judged on the sums.",
        "Runs of different identity (run.json 'identity') or that never overlapped in time are refused.", ""})
public final class MergeCommand implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(MergeCommand.class);

  @Parameters(arity = "2..*", paramLabel = "RUN_DIR", description = "Run folders of clients that ran at the same time.")
  List<Path> sources;

  @Option(names = {"-o", "--out"}, required = true, paramLabel = "OUT", description = "The merged run folder (must not hold a run).")
  Path out;

  @Option(names = "--allow-different", description = "Merge runs of different identity (command, binding, workload,"
      + " scenario properties) or that did not overlap in time anyway; run.json records what differed.")
  boolean allowDifferent;

  private final PrintStream stdout;

  public MergeCommand() {
    this(System.out);
  }

  MergeCommand(PrintStream stdout) {
    this.stdout = stdout;
  }

  @Override
  public Integer call() throws IOException {
    try {
      RunResult result = RunMerger.merge(sources, out, allowDifferent);
      stdout.print(Files.readString(result.folder().resolve(RunFolder.SUMMARY_TXT)));
      LOG.info("Merged {} runs into {}", sources.size(), result.folder());
      return ExitCodes.OK;
    } catch (ConfigException e) {
      e.problems().forEach(LOG::error);
      return ExitCodes.USAGE;
    }
  }
}
