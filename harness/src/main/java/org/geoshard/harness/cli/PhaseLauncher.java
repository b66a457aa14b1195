package org.geoshard.harness.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.binding.BindingRegistry;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.config.UnknownProperties;
import org.geoshard.harness.measure.StopReason;
import org.geoshard.harness.output.RunFolder;
import org.geoshard.harness.output.RunResult;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.Runner;
import org.geoshard.harness.run.StartFailedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks a load or run request as a whole (every problem reported at once, before anything starts),
 * runs it with a Ctrl-C handler that keeps what was measured, and turns the outcome into an exit code.
 */
public final class PhaseLauncher {
  private static final Logger LOG = LoggerFactory.getLogger(PhaseLauncher.class);
  /** How long Ctrl-C waits for the run folder to be written before the JVM goes down. */
  private static final Duration SHUTDOWN_WAIT = Duration.ofSeconds(45);

  private final Phase phase;
  private final BindingRegistry registry;
  private final UnknownProperties unknown;
  private final Path resultsRoot;
  private final PrintStream out;

  public PhaseLauncher(Phase phase) {
    this(phase, BindingRegistry.fromClassPath(), UnknownProperties.fromClassPath(), defaultResultsRoot(), System.out);
  }

  PhaseLauncher(Phase phase, BindingRegistry registry, UnknownProperties unknown, Path resultsRoot, PrintStream out) {
    this.phase = phase;
    this.registry = registry;
    this.unknown = unknown;
    this.resultsRoot = resultsRoot;
    this.out = out;
  }

  /** {@code <geoshard home>/results/runs}, or {@code results/runs} below the working directory. */
  public static Path defaultResultsRoot() {
    String home = System.getProperty("geoshard.home");
    return (home == null ? Path.of("") : Path.of(home)).resolve("results").resolve("runs");
  }

  public int launch(String bindingName, List<Path> files, List<String> overrides, Integer threads, Double target) {
    Properties properties;
    Binding binding = null;
    RunSettings settings = null;
    List<String> problems = new ArrayList<>();
    try {
      properties = PropertySources.resolve(files, overrides, threads, target);
    } catch (ConfigException e) {
      return usage(e.problems());
    }
    try {
      binding = registry.resolve(bindingName);
    } catch (ConfigException e) {
      problems.addAll(e.problems());
    }
    unknown.warnings(properties).forEach(warning -> LOG.warn(warning));
    List<String> settingsProblems = List.of();
    try {
      settings = RunSettings.fromProperties(phase, properties, PropertySources.defaultLabel(files));
    } catch (ConfigException e) {
      settingsProblems = e.problems();
    }
    // Each malformed value once: a module that reads a harness property too does not fault it again.
    problems.addAll(unknown.problems(properties, settingsProblems));
    if (!problems.isEmpty()) {
      return usage(problems);
    }
    return run(new Runner(settings, properties, binding, resultsRoot));
  }

  private int run(Runner runner) {
    // The JVM ends when the hook returns: it waits for the last line too, not only for the run folder.
    java.util.concurrent.CountDownLatch reported = new java.util.concurrent.CountDownLatch(1);
    Thread hook = new Thread(() -> {
      runner.stop(StopReason.INTERRUPTED);
      try {
        if (!runner.awaitFinished(SHUTDOWN_WAIT)) {
          LOG.error("The run folder could not be completed within {} s of the interrupt.", SHUTDOWN_WAIT.toSeconds());
        } else {
          reported.await(5, java.util.concurrent.TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "interrupt-handler");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      RunResult result = runner.execute();
      return report(result);
    } catch (ConfigException e) {
      return usage(e.problems());
    } catch (StartFailedException e) {
      LOG.error(e.getMessage());
      return ExitCodes.FAILED;
    } catch (IOException e) {
      LOG.error("Could not write the run folder: {}", e.toString());
      return ExitCodes.FAILED;
    } finally {
      reported.countDown();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // The JVM is already going down (Ctrl-C); the hook is running and waits for us.
      }
    }
  }

  /** Prints the summary and turns the outcome into the exit code, with one line for what went wrong. */
  int report(RunResult result) throws IOException {
    out.print(Files.readString(result.folder().resolve(RunFolder.SUMMARY_TXT)));
    out.flush();
    LOG.info("Run folder: {}", result.folder());
    if (result.stopReason() == StopReason.INTERRUPTED) {
      LOG.warn("Interrupted: every finished operation is in the run folder.");
      return ExitCodes.INTERRUPTED;
    }
    if (result.preparationFailed()) {
      LOG.error("{} ({} operations failed, {} threads failed); see {}.", result.preparationFailure(), result.errors(),
          result.threadFailures(), result.folder().resolve(RunFolder.RUN_JSON));
      return ExitCodes.FAILED;
    }
    if (result.nothingSucceeded()) {
      // A run that measured nothing is no result, even when no operation failed (one that never ended).
      LOG.error("Nothing was measured: no operation succeeded ({} ended, {} of them failed, stopped: {}); see {}.",
          result.operations(), result.errors(), result.stopReason().label(), result.folder().resolve(RunFolder.SUMMARY_TXT));
      return ExitCodes.FAILED;
    }
    if (result.hasFailures()) {
      LOG.error("{} operations failed and {} threads failed; see {}.", result.errors(), result.threadFailures(),
          result.folder().resolve(RunFolder.SUMMARY_TXT));
      return ExitCodes.FAILED;
    }
    return ExitCodes.OK;
  }

  private static int usage(List<String> problems) {
    problems.forEach(problem -> LOG.error(problem));
    return ExitCodes.USAGE;
  }
}
