package org.geoshard.geo.cells;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.LongAdder;
import org.geoshard.geo.GeoSettings;
import org.geoshard.geo.contract.GeoHit;
import org.geoshard.geo.contract.GeoQuery;
import org.geoshard.geo.contract.Restaurant;
import org.geoshard.geo.query.QueryGenerator;
import org.geoshard.geo.query.QuerySession;

/**
 * How many shards the study's query mix reaches under a ranged cell key, offline: each query's
 * covering is mapped onto the ranges. With a hashed key every near query goes to every shard.
 *
 * <p>The sessions are the workload's own ({@link QuerySession}): a filtered or next-page query
 * repeats its basic query's centre and radius, so it reaches the same shards. Without a database the
 * first page of a session counts as full (so a next page follows whenever the mix draws one); the
 * shards a query reaches do not depend on that.
 */
public final class QueryTargeting {
  private final CellGrid grid;
  private final CellRanges ranges;

  public QueryTargeting(CellGrid grid, CellRanges ranges) {
    this.grid = grid;
    this.ranges = ranges;
  }

  /** The ranges (shards) a query's covering reaches, ascending; all of them without a covering. */
  public int[] rangesOf(GeoQuery query) {
    long[] covering = grid.covering(query);
    if (covering == null) {
      int[] all = new int[ranges.size()];
      Arrays.setAll(all, i -> i);
      return all;
    }
    return Arrays.stream(covering).mapToInt(ranges::rangeOf).distinct().sorted().toArray();
  }

  /** Draws {@code queries} queries of the mix from {@code random} and sums up where they went. */
  public Result simulate(QueryGenerator generator, GeoSettings settings, SplittableRandom random, int queries) {
    QuerySession session = new QuerySession(generator, settings, random, new LongAdder());
    List<GeoHit> fullPage = fullPage(settings.pageSize());
    int[] shardsPerQuery = new int[queries];
    long[] queriesPerShard = new long[ranges.size()];
    long coveringCells = 0;
    for (int q = 0; q < queries; q++) {
      GeoQuery query = session.nextQuery();
      long[] covering = grid.covering(query);
      coveringCells += covering == null ? 0 : covering.length;
      int[] reached = rangesOf(query);
      shardsPerQuery[q] = reached.length;
      for (int shard : reached) {
        queriesPerShard[shard]++;
      }
      session.completed(fullPage);
    }
    Arrays.sort(shardsPerQuery);
    double mean = Arrays.stream(shardsPerQuery).average().orElse(0);
    int p95 = shardsPerQuery[(int) Math.ceil(0.95 * queries) - 1];
    return new Result(queries, mean, p95, shardsPerQuery[queries - 1], (double) coveringCells / queries,
        queriesPerShard);
  }

  /** A page of {@code size} placeholder hits: only its length steers the session. */
  private static List<GeoHit> fullPage(int size) {
    Restaurant placeholder = new Restaurant(0, "", "", "", 0, 0, 0, "", false, 0, 0);
    return new ArrayList<>(Collections.nCopies(size, new GeoHit(placeholder, 0)));
  }

  /**
   * @param meanCoveringCells cells per covering, on average
   * @param queriesPerShard how many of the queries reached each shard
   */
  public record Result(int queries, double meanShardsPerQuery, int p95ShardsPerQuery, int maxShardsPerQuery,
                       double meanCoveringCells, long[] queriesPerShard) {
    public Map<String, Object> toMap() {
      Map<String, Object> map = new LinkedHashMap<>();
      map.put("meanShardsPerQuery", meanShardsPerQuery);
      map.put("p95ShardsPerQuery", p95ShardsPerQuery);
      map.put("maxShardsPerQuery", maxShardsPerQuery);
      map.put("meanCoveringCells", meanCoveringCells);
      map.put("queriesPerShard", queriesPerShard);
      return map;
    }
  }
}
