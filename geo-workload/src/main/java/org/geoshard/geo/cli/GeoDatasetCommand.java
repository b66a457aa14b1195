package org.geoshard.geo.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.geoshard.geo.GeoSettings;
import org.geoshard.geo.cli.AtomicOutput.OutputException;
import org.geoshard.geo.contract.Restaurant;
import org.geoshard.geo.dataset.DatasetExport;
import org.geoshard.geo.dataset.DatasetExport.Compression;
import org.geoshard.geo.dataset.RestaurantDataset;
import org.geoshard.geo.dataset.RestaurantJson;
import org.geoshard.harness.cli.ExitCodes;
import org.geoshard.harness.cli.GeoshardCommand;
import org.geoshard.harness.config.PropertyReader;
import org.geoshard.harness.output.Formats;
import org.geoshard.harness.output.RunFolder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/ycsb geo-dataset --stats | --out FILE [-P file]... [-p key=value]...}: the size of the
 * restaurant dataset, or the dataset itself as JSON lines for {@code mongoimport}.
 */
@Command(name = "geo-dataset", mixinStandardHelpOptions = true, sortOptions = false, separator = " ",
    header = "Prints the geo dataset's statistics, or writes the dataset as JSON lines.",
    description = {"--stats prints a JSON object: cities, citiesWithRestaurants, restaurants, minRadius, maxRadius"
        + " (metres), bytes (the dataset's size as JSON lines), and the settings used.",
        "--out writes one document per line (.jsonl, .jsonl.gz or .jsonl.zst compressed), importable with mongoimport"
            + " (--gzip for .gz, through zstd -dc for .zst);"
            + " chunks are generated and compressed on --threads threads (one gzip member each, one valid .gz file)"
            + " and written in order, at most two chunks per thread in memory.", ""})
public final class GeoDatasetCommand implements GeoshardCommand {
  private static final Logger LOG = LoggerFactory.getLogger(GeoDatasetCommand.class);

  @ArgGroup(exclusive = true, multiplicity = "1")
  Action action;

  static final class Action {
    @Option(names = "--stats", required = true, description = "Print the dataset's statistics as JSON.")
    boolean stats;

    @Option(names = "--out", required = true, paramLabel = "FILE",
        description = "Write the dataset (.jsonl, .jsonl.gz or .jsonl.zst).")
    Path out;

    @Option(names = "--bench", required = true,
        description = "Measure generation on one thread: restaurants/s to a null sink, and with JSON encoding.")
    boolean bench;
  }

  @Option(names = "--threads", paramLabel = "N",
      description = "With --out: threads that generate and compress chunks at once (default: the cores, ${DEFAULT-VALUE}).")
  int threads = Runtime.getRuntime().availableProcessors();

  @Option(names = "--level", paramLabel = "L",
      description = "With --out FILE.gz: the deflate level, 1 (fastest, the default) to 9 (smallest; gzip's own default is 6);"
          + " with FILE.zst: the zstd level, 1 to 19, default 3 (zstd's).")
  Integer level;

  @Option(names = "-P", paramLabel = "FILE", description = "A workload properties file; may be repeated.")
  List<Path> files = new ArrayList<>();

  @Option(names = "-p", paramLabel = "KEY=VALUE", description = "Sets one property (geo.scale, geo.cities, seed, ...).")
  List<String> overrides = new ArrayList<>();

  private final PrintStream out;
  private final AtomicOutput output;

  public GeoDatasetCommand() {
    this(System.out, AtomicOutput.NEW_FILE);
  }

  GeoDatasetCommand(PrintStream out) {
    this(out, AtomicOutput.NEW_FILE);
  }

  /** @param opener how the output file is opened: tests make it fail as a full disk does */
  GeoDatasetCommand(PrintStream out, AtomicOutput.Opener opener) {
    this.out = out;
    this.output = new AtomicOutput("--out", opener);
  }

  @Override
  public Integer call() throws IOException {
    if (threads < 1) {
      LOG.error("--threads must be at least 1, not {}.", threads);
      return ExitCodes.USAGE;
    }
    Compression compression = action.out == null ? Compression.NONE : Compression.of(action.out.toString());
    if (level != null && compression == Compression.NONE) {
      LOG.error("--level applies only to a compressed --out file (.gz or .zst).");
      return ExitCodes.USAGE;
    }
    if (level != null && (level < compression.minLevel() || level > compression.maxLevel())) {
      LOG.error("--level must be a {} level from {} to {}, not {}.", compression == Compression.GZIP ? "deflate" : "zstd",
          compression.minLevel(), compression.maxLevel(), level);
      return ExitCodes.USAGE;
    }
    int chosenLevel = level != null ? level : compression.defaultLevel();
    if (action.out != null) {
      try {
        output.checkPath(action.out);
      } catch (OutputException e) {
        LOG.error(e.getMessage());
        return ExitCodes.USAGE;
      }
    }
    DatasetInput input = DatasetInput.readOrLog(files, overrides, LOG);
    if (input == null) {
      return ExitCodes.USAGE;
    }
    RestaurantDataset dataset = input.dataset();
    GeoSettings settings = input.settings();
    if (action.stats) {
      out.println(RunFolder.json().writeValueAsString(stats(dataset, settings)));
      return ExitCodes.OK;
    }
    if (action.bench) {
      bench(dataset, out);
      return ExitCodes.OK;
    }
    long started = System.nanoTime();
    DatasetExport export = new DatasetExport(compression, chosenLevel, threads, DatasetExport.DEFAULT_CHUNK);
    long written;
    try {
      written = output.write(action.out, stream -> export.write(dataset, stream));
    } catch (OutputException e) {
      LOG.error(e.getMessage());
      return e.usage() ? ExitCodes.USAGE : ExitCodes.FAILED;
    }
    LOG.info("Wrote {} restaurants to {} in {} s ({} threads{}).", written, action.out,
        Formats.decimal((System.nanoTime() - started) / 1e9, 1), threads,
        compression == Compression.NONE ? "" : ", " + compression.name().toLowerCase(java.util.Locale.ROOT) + " level "
            + chosenLevel);
    return ExitCodes.OK;
  }

  static Map<String, Object> stats(RestaurantDataset dataset, GeoSettings settings) {
    long started = System.nanoTime();
    int minRadius = Integer.MAX_VALUE;
    int maxRadius = 0;
    long citiesWithRestaurants = 0;
    for (int i = 0; i < dataset.cities().size(); i++) {
      minRadius = Math.min(minRadius, dataset.radiusMeters(i));
      maxRadius = Math.max(maxRadius, dataset.radiusMeters(i));
      citiesWithRestaurants += dataset.restaurantsIn(i) > 0 ? 1 : 0;
    }
    long bytes = 0;
    StringBuilder line = new StringBuilder(256);
    for (long k = 0; k < dataset.size(); k++) {
      line.setLength(0);
      RestaurantJson.append(dataset.restaurant(k), line);
      bytes += RestaurantJson.utf8Length(line) + 1;
    }
    Map<String, Object> stats = new LinkedHashMap<>();
    stats.put("cities", dataset.cities().size());
    stats.put("citiesWithRestaurants", citiesWithRestaurants);
    stats.put("restaurants", dataset.size());
    stats.put("minRadius", minRadius);
    stats.put("maxRadius", maxRadius);
    stats.put("bytes", bytes);
    stats.put("scale", settings.scale());
    stats.put("seed", settings.seed());
    stats.put("placement", PropertyReader.choiceName(settings.placement()));
    stats.put("generationMs", (System.nanoTime() - started) / 1_000_000);
    return stats;
  }

  /** Generates the whole dataset twice on this thread: objects only, then objects and JSON. */
  static void bench(RestaurantDataset dataset, PrintStream out) {
    long n = dataset.size();
    long started = System.nanoTime();
    long sink = 0;
    for (long k = 0; k < n; k++) {
      Restaurant r = dataset.restaurant(k);
      // Fold every field into the sink so that the JIT cannot drop the generation.
      sink += r.name().length() + r.rating() + Double.doubleToRawLongBits(r.longitude() + r.latitude());
    }
    double objectsSeconds = (System.nanoTime() - started) / 1e9;
    started = System.nanoTime();
    StringBuilder line = new StringBuilder(256);
    for (long k = 0; k < n; k++) {
      line.setLength(0);
      RestaurantJson.append(dataset.restaurant(k), line);
      sink += line.length();
    }
    double jsonSeconds = (System.nanoTime() - started) / 1e9;
    Runtime runtime = Runtime.getRuntime();
    out.printf(java.util.Locale.US, "geo dataset generation, one thread: %,d restaurants from %,d cities (sink %d)%n",
        n, dataset.cities().size(), sink & 0xff);
    out.printf(java.util.Locale.US, "%-28s %10.2f s %,14.0f restaurants/s%n", "objects (null sink)", objectsSeconds, n / objectsSeconds);
    out.printf(java.util.Locale.US, "%-28s %10.2f s %,14.0f restaurants/s%n", "objects + JSON encoding", jsonSeconds, n / jsonSeconds);
    out.printf(java.util.Locale.US, "heap: max %,d MB, used now %,d MB%n", runtime.maxMemory() >> 20,
        (runtime.totalMemory() - runtime.freeMemory()) >> 20);
  }
}
