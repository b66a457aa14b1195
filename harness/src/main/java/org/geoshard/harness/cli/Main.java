package org.geoshard.harness.cli;

import java.util.ServiceLoader;
import org.geoshard.harness.run.Phase;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The entry point of {@code bin/ycsb}; the only place that ends the JVM. */
@Command(name = "ycsb", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = {"", "geoshard: YCSB for MongoDB under geospatial and location workloads.", ""},
    commandListHeading = "%nCommands:%n",
    footer = {"", "Also, from bin/ycsb itself:",
        "  report       Tables and figures from run folders (bin/ycsb report --help).",
        "  demo         The whole loop on this machine: private PostGIS, load, quick ramp, report.",
        "", "Run 'bin/ycsb <command> --help' for a command's options."})
public final class Main implements Runnable {
  @Spec
  CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.err);
  }

  public static void main(String[] args) {
    UncaughtExceptions.install();  // a driver's thread dying says one line, not a raw stack trace
    System.exit(commandLine().execute(args));
  }

  private static CommandLine phase(Phase phase, String header) {
    CommandLine command = new CommandLine(new PhaseCommand(phase)).setCommandName(phase.commandName());
    command.getCommandSpec().usageMessage().header(header);
    return command;
  }

  /** The whole command tree: load, run, bench, and the commands other modules contribute. */
  public static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new Main());
    cli.addSubcommand("load", phase(Phase.LOAD, "Inserts a workload's records through a binding (YCSB's load phase)."));
    cli.addSubcommand("run", phase(Phase.RUN, "Runs a workload's operation mix against a binding (YCSB's run phase)."));
    cli.addSubcommand("prepare", new PrepareCommand());
    cli.addSubcommand("preflight", new PreflightCommand());
    cli.addSubcommand("merge", new MergeCommand());
    cli.addSubcommand("bench", new BenchCommand());
    for (GeoshardCommand command : ServiceLoader.load(GeoshardCommand.class)) {
      CommandLine parent = command.parentCommand() == null ? cli : cli.getSubcommands().get(command.parentCommand());
      if (parent == null) {
        throw new IllegalStateException(command.getClass().getName() + " names an unknown parent command '"
            + command.parentCommand() + "'.");
      }
      parent.addSubcommand(command);
    }
    cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
      LoggerFactory.getLogger(Main.class).error("ycsb {} failed: {}", commandLine.getCommandName(), e.toString(), e);
      return ExitCodes.FAILED;
    });
    cli.setExitCodeExceptionMapper(e -> ExitCodes.USAGE);
    return cli;
  }
}
