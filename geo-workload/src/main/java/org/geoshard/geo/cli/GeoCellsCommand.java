package org.geoshard.geo.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.geoshard.geo.GeoSettings;
import org.geoshard.geo.cells.CellCounts;
import org.geoshard.geo.cells.CellGrid;
import org.geoshard.geo.cells.CellRanges;
import org.geoshard.geo.cells.CellSettings;
import org.geoshard.geo.cells.QueryTargeting;
import org.geoshard.geo.dataset.RestaurantDataset;
import org.geoshard.geo.query.QueryGenerator;
import org.geoshard.harness.api.Seeds;
import org.geoshard.harness.cli.ExitCodes;
import org.geoshard.harness.cli.GeoshardCommand;
import org.geoshard.harness.output.RunFolder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/ycsb geo-cells --stats [-P file]... [-p key=value]...}: what a ranged S2-cell shard key
 * would do with the dataset and the study's query mix, computed offline: the ranges' balance and how
 * many shards each query reaches, beside the hashed key (every query to every shard).
 */
@Command(name = "geo-cells", mixinStandardHelpOptions = true, sortOptions = false, separator = " ",
    header = "Prints how a ranged S2-cell shard key spreads the geo dataset and the query mix over shards.",
    description = {"--stats prints a JSON object: shards, queries, hashed (every query to every shard) and cells:"
        + " meanShardsPerQuery, p95ShardsPerQuery, maxOverMinRestaurants, queriesPerShard, restaurantsPerShard,"
        + " the ranges' lower bounds, and the settings used. Set geo.cells.shards, geo.cells.level,"
        + " geo.cells.queries with -p.", ""})
public final class GeoCellsCommand implements GeoshardCommand {
  private static final Logger LOG = LoggerFactory.getLogger(GeoCellsCommand.class);

  @Option(names = "--stats", required = true, description = "Print the cell key's statistics as JSON.")
  boolean stats;

  @Option(names = "-P", paramLabel = "FILE", description = "A workload properties file; may be repeated.")
  List<Path> files = new ArrayList<>();

  @Option(names = "-p", paramLabel = "KEY=VALUE",
      description = "Sets one property (geo.cells.shards, geo.cells.level, geo.scale, seed, ...).")
  List<String> overrides = new ArrayList<>();

  private final PrintStream out;

  public GeoCellsCommand() {
    this(System.out);
  }

  GeoCellsCommand(PrintStream out) {
    this.out = out;
  }

  @Override
  public Integer call() throws IOException {
    DatasetInput input = DatasetInput.readOrLog(files, overrides, LOG);
    CellSettings cells = input == null ? null : input.extraOrLog(CellSettings::fromProperties, LOG);
    if (cells == null) {
      return ExitCodes.USAGE;
    }
    RestaurantDataset dataset = input.dataset();
    GeoSettings settings = input.settings();
    Properties properties = input.properties();
    Map<String, Object> result;
    try {
      result = stats(dataset, settings, cells);
    } catch (IllegalArgumentException e) {
      LOG.error(e.getMessage());
      return ExitCodes.USAGE;
    }
    out.println(RunFolder.json().writeValueAsString(result));
    return ExitCodes.OK;
  }

  static Map<String, Object> stats(RestaurantDataset dataset, GeoSettings settings, CellSettings cellSettings) {
    long started = System.nanoTime();
    CellGrid grid = cellSettings.grid();
    CellCounts counts = CellCounts.of(dataset, grid);
    CellRanges ranges = CellRanges.balanced(counts, cellSettings.shards());
    QueryTargeting.Result targeting = new QueryTargeting(grid, ranges).simulate(new QueryGenerator(dataset, settings),
        settings, Seeds.forThread(settings.seed(), "geo-cells-stats", 0), cellSettings.queries());
    int n = cellSettings.shards();

    Map<String, Object> hashed = new LinkedHashMap<>();
    hashed.put("meanShardsPerQuery", (double) n);
    hashed.put("p95ShardsPerQuery", n);
    Map<String, Object> cellsPart = targeting.toMap();
    cellsPart.put("maxOverMinRestaurants", ranges.maxOverMin());
    cellsPart.put("restaurantsPerShard", ranges.restaurantsPerRange());
    cellsPart.put("lowerBounds", ranges.lowerBounds());
    cellsPart.put("cellsWithRestaurants", counts.size());
    long largest = 0;
    for (int i = 0; i < counts.size(); i++) {
      largest = Math.max(largest, counts.count(i));
    }
    cellsPart.put("largestCellRestaurants", largest);

    Map<String, Object> stats = new LinkedHashMap<>();
    stats.put("shards", n);
    stats.put("queries", targeting.queries());
    stats.put("hashed", hashed);
    stats.put("cells", cellsPart);
    stats.put("level", grid.level());
    stats.put("restaurants", dataset.size());
    stats.put("scale", settings.scale());
    stats.put("seed", settings.seed());
    stats.put("computeMs", (System.nanoTime() - started) / 1_000_000);
    return stats;
  }
}
