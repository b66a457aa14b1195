package org.geoshard.lastlocation.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.SplittableRandom;
import org.geoshard.harness.api.Seeds;
import org.geoshard.harness.cli.ExitCodes;
import org.geoshard.harness.cli.GeoshardCommand;
import org.geoshard.harness.cli.PropertySources;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.lastlocation.LastLocationSettings;
import org.geoshard.lastlocation.LastLocationWorkload;
import org.geoshard.lastlocation.contract.LocationEvent;
import org.geoshard.lastlocation.model.EventStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import site.ycsb.WorkloadException;

/**
 * {@code bin/ycsb ll-events --bench [-P file]... [-p key=value]...}: how fast one thread generates
 * location events, so that a user knows the client can offer the rates a study needs.
 */
@Command(name = "ll-events", mixinStandardHelpOptions = true, sortOptions = false, separator = " ",
    header = "Measures how fast the last-location workload generates events on one thread.",
    description = {"Builds the subscribers and cells of the given properties, then generates events on one thread",
        "to a null sink and prints events per second.", ""})
public final class LocationEventsCommand implements GeoshardCommand {
  private static final Logger LOG = LoggerFactory.getLogger(LocationEventsCommand.class);

  @Option(names = "--bench", required = true, description = "Run the measurement.")
  boolean bench;

  @Option(names = "--events", paramLabel = "N", description = "Events to generate (default ${DEFAULT-VALUE}).")
  long events = 20_000_000;

  @Option(names = "-P", paramLabel = "FILE", description = "A workload properties file; may be repeated.")
  List<Path> files = new ArrayList<>();

  @Option(names = "-p", paramLabel = "KEY=VALUE", description = "Sets one property (ll.users, ll.cells, ...).")
  List<String> overrides = new ArrayList<>();

  private final PrintStream out;

  public LocationEventsCommand() {
    this(System.out);
  }

  LocationEventsCommand(PrintStream out) {
    this.out = out;
  }

  @Override
  public Integer call() {
    LastLocationWorkload workload = new LastLocationWorkload();
    LastLocationSettings settings;
    try {
      Properties properties = PropertySources.resolveChecked(files, overrides);
      properties.setProperty("ll.writers", "1");
      long setupStarted = System.nanoTime();
      workload.init(properties);
      settings = workload.settings();
      double setupSeconds = (System.nanoTime() - setupStarted) / 1e9;
      long clock = settings.clockStartMs();
      EventStream stream = new EventStream(workload.subscribers(), 0, 1, settings.moveProbability(),
          settings.outOfOrder(), settings.maxDelayMs(), new SplittableRandom(Seeds.derive(settings.seed(), "bench", 0)),
          () -> clock);
      long sink = 0;
      long started = System.nanoTime();
      for (long i = 0; i < events; i++) {
        LocationEvent e = stream.next();
        sink += e.timestampMs() + e.cellId() + e.userId().length();
      }
      double seconds = (System.nanoTime() - started) / 1e9;
      out.printf(Locale.US, "last-location events, one thread: %,d users, %,d cells (set-up %.2f s), sink %d%n",
          settings.users(), settings.cells(), setupSeconds, sink & 0xff);
      out.printf(Locale.US, "%,d events in %.2f s: %,.0f events/s (%,d late)%n", events, seconds, events / seconds,
          stream.lateEvents());
      return ExitCodes.OK;
    } catch (ConfigException e) {
      e.problems().forEach(LOG::error);
      return ExitCodes.USAGE;
    } catch (WorkloadException e) {
      LOG.error(e.getMessage());
      return ExitCodes.USAGE;
    }
  }
}
