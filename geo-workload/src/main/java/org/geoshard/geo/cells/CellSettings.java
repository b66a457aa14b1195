package org.geoshard.geo.cells;

import java.util.Properties;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.config.PropertyReader;

/**
 * The cell key's properties ({@code geo.cells.*}), read and checked at once. Immutable.
 *
 * @param level the S2 level of the {@code cell} stored with each restaurant (the storage level)
 * @param shards the number of key ranges {@code bin/ycsb geo-cells --stats} splits the cells into
 * @param covering whether near queries carry the covering of their cap where the store has the cell key
 * @param queries how many queries of the study mix {@code geo-cells --stats} draws
 */
public record CellSettings(int level, int shards, boolean covering, int queries) {
  public static final String LEVEL = "geo.cells.level";
  public static final String SHARDS = "geo.cells.shards";
  public static final String COVERING = "geo.cells.covering";
  public static final String QUERIES = "geo.cells.queries";

  /**
   * Level 7 cells are 60-90 km wide: a 5 km cap touches one to four of them and a 50 km cap about
   * four to nine, so the {@code $in} list stays short while 3 ranges of the curve still hold whole
   * metropolitan areas (see the README, "Can sharding help geo queries?").
   */
  public static final int DEFAULT_LEVEL = 7;

  public static CellSettings fromProperties(Properties properties) throws ConfigException {
    PropertyReader in = new PropertyReader(properties);
    int level = in.intInRange(LEVEL, DEFAULT_LEVEL, 0, CellGrid.MAX_LEVEL);
    int shards = in.intInRange(SHARDS, 3, 1, 10_000);
    boolean covering = in.bool(COVERING, true);
    int queries = in.intInRange(QUERIES, 100_000, 1, 100_000_000);
    in.throwIfProblems();
    return new CellSettings(level, shards, covering, queries);
  }

  /** The grid of the storage level. */
  public CellGrid grid() {
    return new CellGrid(level);
  }
}
