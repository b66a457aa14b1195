package org.geoshard.harness.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Callable;
import org.geoshard.harness.api.DataDeclaration;
import org.geoshard.harness.api.DataRole;
import org.geoshard.harness.api.SharedObjects;
import org.geoshard.harness.api.Preparable;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.binding.BindingRegistry;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.output.RunFolder;
import org.geoshard.harness.output.RunRecord;
import org.geoshard.harness.run.BindingSession;
import org.geoshard.harness.run.Phase;
import org.geoshard.harness.run.RunSettings;
import org.geoshard.harness.run.WorkloadLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import site.ycsb.DBException;

/** {@code bin/ycsb prepare <binding> [-P file]... [-p key=value]... [--stage ...]}. */
@Command(name = "prepare", mixinStandardHelpOptions = true, sortOptions = false, separator = " ",
    header = "Prepares the database for a workload (collections, sharding, indexes), timing each step.",
    description = {"A load does the same by itself: before-load before the first insert, after-load after the last.",
        "Prepares only the data the workload (property workload) declares: its collections or tables, no other's.",
        "Writes a run folder whose run.json lists the steps with their times, and the topology.", ""})
public final class PrepareCommand implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(PrepareCommand.class);

  /** Which stages to run. */
  enum Stages {
    BEFORE_LOAD, AFTER_LOAD, ALL
  }

  @Parameters(index = "0", paramLabel = "<binding>", description = "A registered binding name or a class name.")
  String bindingName;

  @Option(names = "-P", paramLabel = "FILE", description = "A workload properties file; may be repeated.")
  List<Path> files = new ArrayList<>();

  @Option(names = "-p", paramLabel = "KEY=VALUE", description = "Sets one property.")
  List<String> overrides = new ArrayList<>();

  @Option(names = "--stage", paramLabel = "STAGE", description = "before-load (default), after-load or all.")
  String stageName = "before-load";

  private final PrintStream out;

  public PrepareCommand() {
    this(System.out);
  }

  PrepareCommand(PrintStream out) {
    this.out = out;
  }

  @Override
  public Integer call() throws IOException {
    Properties properties;
    RunSettings settings = null;
    Binding binding;
    RunFolder folder;
    Stages stage;
    Set<DataRole> data = Set.of();
    DataDeclaration declaration = DataDeclaration.keyValue();
    try {
      try {
        stage = Stages.valueOf(stageName.trim().replace('-', '_').toUpperCase(java.util.Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new ConfigException("--stage " + stageName + ": must be before-load, after-load or all.");
      }
      properties = PropertySources.resolveChecked(files, overrides);
      List<String> problems = new ArrayList<>();
      try {
        // the load's settings: preparation prepares what the load fills, with the same properties
        settings = RunSettings.fromProperties(Phase.LOAD, properties, PropertySources.defaultLabel(files));
        declaration = WorkloadLoader.declaration(properties);
        data = declaration.roles();
      } catch (ConfigException e) {
        problems.addAll(e.problems());
      }
      binding = BindingRegistry.fromClassPath().resolve(bindingName);
      if (!Preparable.class.isAssignableFrom(binding.type())) {
        problems.add("Binding '" + bindingName + "' has nothing to prepare (it does not implement Preparable).");
      }
      if (!problems.isEmpty()) {
        throw new ConfigException(problems);
      }
      folder = RunFolder.create(settings.resultsDir(), PhaseLauncher.defaultResultsRoot(), Instant.now(),
          "prepare", binding.name(), PropertySources.defaultLabel(files));
    } catch (ConfigException e) {
      e.problems().forEach(LOG::error);
      return ExitCodes.USAGE;
    }
    RunRecord record = new RunRecord("prepare", binding.name(), binding.type().getName(),
        settings.workloadClass(), PropertySources.defaultLabel(files), properties);
    record.time("startTime", Instant.now());
    int code = ExitCodes.OK;
    SharedObjects shared = new SharedObjects(declaration);
    BindingSession session = new BindingSession(binding, properties, record, shared);
    try {
      if (stage != Stages.AFTER_LOAD) {
        session.prepare(Preparable.Stage.BEFORE_LOAD, data);
      }
      if (stage != Stages.BEFORE_LOAD) {
        session.prepare(Preparable.Stage.AFTER_LOAD, data);
      }
      record.put("status", "finished");
    } catch (DBException | RuntimeException e) {
      LOG.error("Preparation failed: {}", e.getMessage());
      record.put("status", "failed").put("stopReason", "failed");
      code = ExitCodes.FAILED;
    }
    session.recordTopology("after prepare", data);
    shared.close();
    record.time("endTime", Instant.now());
    folder.writeJson(RunFolder.RUN_JSON, record.asMap());
    out.println(RunFolder.json().writeValueAsString(record.asMap().getOrDefault("preparation", List.of())));
    LOG.info("Run folder: {}", folder.path());
    return code;
  }
}
