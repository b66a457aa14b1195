package org.geoshard.harness.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.geoshard.harness.api.Preflight.Check;
import org.geoshard.harness.api.Preflight;
import org.geoshard.harness.api.SharedObjects;
import org.geoshard.harness.api.Secrets;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.binding.BindingRegistry;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.output.RunFolder;
import org.geoshard.harness.run.WorkloadLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import site.ycsb.DB;
import site.ycsb.DBException;

/**
 * {@code bin/ycsb preflight <binding> [--for load|run] [-P file]... [-p key=value]... [--json]}: reads the target with the
 * scenario's properties and prints one line per check (ok, warn or fail). Exit 0 when the run can go,
 * 1 when a check fails (or the target cannot be reached), 2 on usage. Changes nothing on the server.
 */
@Command(name = "preflight", mixinStandardHelpOptions = true, sortOptions = false, separator = " ",
    header = "Reads the target before a run: servers, versions, topology, collection, indexes (one line per check).",
    description = {"Exit 0 when the run can go, 1 when a check fails, 2 on usage. Changes nothing on the server.", ""})
public final class PreflightCommand implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(PreflightCommand.class);

  @Parameters(index = "0", paramLabel = "<binding>", description = "A registered binding name or a class name.")
  String bindingName;

  @Option(names = "-P", paramLabel = "FILE", description = "A workload properties file; may be repeated.")
  List<Path> files = new ArrayList<>();

  @Option(names = "-p", paramLabel = "KEY=VALUE", description = "Sets one property.")
  List<String> overrides = new ArrayList<>();

  @Option(names = "--for", paramLabel = "load|run", converter = BeforeConverter.class,
      description = "The command that comes next (default: run). Empty data is ok before a load (or a run that only"
          + " inserts), a failure before any other run, as the run refuses it.")
  Preflight.Before before = Preflight.Before.RUN;

  @Option(names = "--json", description = "Prints the checks as one JSON array instead of lines.")
  boolean json;

  private final PrintStream out;

  public PreflightCommand() {
    this(System.out);
  }

  PreflightCommand(PrintStream out) {
    this.out = out;
  }

  @Override
  public Integer call() throws java.io.IOException {
    Properties properties;
    Binding binding;
    try {
      properties = PropertySources.resolveChecked(files, overrides);
      binding = BindingRegistry.fromClassPath().resolve(bindingName);
      if (!Preflight.class.isAssignableFrom(binding.type())) {
        throw new ConfigException("Binding '" + bindingName + "' has no preflight checks (it does not implement Preflight).");
      }
    } catch (ConfigException e) {
      e.problems().forEach(LOG::error);
      return ExitCodes.USAGE;
    }
    List<Check> checks = new ArrayList<>();
    DB db = null;
    SharedObjects shared = null;
    try {
      shared = new SharedObjects(WorkloadLoader.initialisedDeclaration(properties));
      db = binding.newInstance(properties, shared);
      db.init();
      checks.addAll(((Preflight) db).preflight(before));
    } catch (ConfigException e) {
      checks.add(Check.fail("workload", String.join(" ", e.problems())));
    } catch (DBException | RuntimeException e) {
      checks.add(Check.fail("first contact", Secrets.maskText(String.valueOf(e.getMessage()))));
    } finally {
      if (db != null) {
        try {
          db.cleanup();
        } catch (DBException | RuntimeException e) {
          LOG.debug("cleanup after preflight failed", e);
        }
      }
      if (shared != null) {
        shared.close();
      }
    }
    print(checks);
    return checks.stream().anyMatch(c -> c.status() == Preflight.Verdict.FAIL) ? ExitCodes.FAILED : ExitCodes.OK;
  }

  /** "load" or "run", in any case. */
  static final class BeforeConverter implements picocli.CommandLine.ITypeConverter<Preflight.Before> {
    @Override
    public Preflight.Before convert(String value) {
      try {
        return Preflight.Before.valueOf(value.trim().toUpperCase(java.util.Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new picocli.CommandLine.TypeConversionException("'" + value + "' is neither load nor run");
      }
    }
  }

  private void print(List<Check> checks) throws java.io.IOException {
    if (json) {
      List<Map<String, String>> list = new ArrayList<>();
      for (Check c : checks) {
        Map<String, String> entry = new LinkedHashMap<>();
        entry.put("name", c.name());
        entry.put("status", c.status().label());
        entry.put("detail", c.detail());
        list.add(entry);
      }
      out.println(RunFolder.json().writeValueAsString(list));
      return;
    }
    int width = checks.stream().mapToInt(c -> c.name().length()).max().orElse(0);
    for (Check c : checks) {
      out.printf("%-4s  %-" + width + "s  %s%n", c.status().label(), c.name(), c.detail());
    }
  }
}
