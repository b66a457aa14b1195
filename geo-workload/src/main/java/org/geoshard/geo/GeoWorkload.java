package org.geoshard.geo;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import org.geoshard.geo.cities.City;
import org.geoshard.geo.cities.CityFileException;
import org.geoshard.geo.cities.CityReader;
import org.geoshard.geo.contract.GeoContract;
import org.geoshard.geo.contract.GeoHit;
import org.geoshard.geo.contract.GeoQuery;
import org.geoshard.geo.contract.Restaurant;
import org.geoshard.geo.dataset.RestaurantDataset;
import org.geoshard.geo.query.QueryGenerator;
import org.geoshard.geo.query.QuerySession;
import org.geoshard.harness.api.DataRole;
import org.geoshard.harness.api.DeclaresData;
import org.geoshard.harness.api.HarnessDB;
import org.geoshard.harness.api.KnowsDatasetSize;
import org.geoshard.harness.api.KnowsInsertCount;
import org.geoshard.harness.api.RequiresContracts;
import org.geoshard.harness.api.Seeds;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.config.PropertyReader;
import org.geoshard.harness.config.YcsbCounts;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.Workload;
import site.ycsb.WorkloadException;

/**
 * The restaurant-search workload of the study "maximum throughput with a geospatial workload while
 * scaling out MongoDB". {@code load} inserts the restaurant dataset ({@code INSERT}); {@code run}
 * performs search sessions, one query per operation: {@code GEO_NEAR}, {@code GEO_NEAR_FILTERED},
 * {@code GEO_NEXT_PAGE}. Bindings serve it by implementing {@link GeoContract}.
 */
public final class GeoWorkload extends Workload implements RequiresContracts, DeclaresData, KnowsInsertCount,
    KnowsDatasetSize {
  private static final Logger LOG = LoggerFactory.getLogger(GeoWorkload.class);

  private GeoSettings settings;
  private RestaurantDataset dataset;
  private QueryGenerator generator;
  private long insertStart;
  private long insertCount;
  private final LongAdder pagesNotFull = new LongAdder();

  @Override
  public void init(Properties properties) throws WorkloadException {
    try {
      settings = GeoSettings.fromProperties(properties);
      dataset = datasetOf(settings);
      YcsbCounts counts = YcsbCounts.fromProperties(properties);
      insertStart = counts.insertStart();
      insertCount = counts.insertCountOf(dataset.size());
      if (counts.insertCount() < 0 && insertStart > 0 && insertStart >= dataset.size()) {
        // insertcount unset is the rest of the dataset from insertstart: here nothing, which no load can insert.
        throw new ConfigException("Property insertstart (" + insertStart + ") is not below the " + dataset.size()
            + " restaurants of the dataset (geo.scale " + settings.scale() + "): no restaurant is left to load from"
            + " there; set insertstart below " + dataset.size() + ".");
      }
      if (insertStart + insertCount > dataset.size()) {
        throw new ConfigException("Properties insertstart (" + insertStart + ") + insertcount (" + insertCount
            + ") exceed the " + dataset.size() + " restaurants of the dataset.");
      }
    } catch (ConfigException | CityFileException e) {
      throw new WorkloadException(e.getMessage(), e);
    }
    generator = new QueryGenerator(dataset, settings);
    LOG.info("Geo dataset: {} cities, {} restaurants (scale {}, seed {}, {} placement).", dataset.cities().size(),
        dataset.size(), settings.scale(), settings.seed(), PropertyReader.choiceName(settings.placement()));
  }

  /** Reads the cities named by the settings and builds the dataset over them. */
  public static RestaurantDataset datasetOf(GeoSettings settings) throws CityFileException {
    CityReader reader = new CityReader(settings.skipBadCities());
    List<City> cities = settings.cities() == null ? reader.readBundled()
        : reader.read(settings.cities(), settings.citiesEncoding());
    return new RestaurantDataset(cities, settings.formula(), settings.scale(), settings.placement(), settings.seed());
  }

  public RestaurantDataset dataset() {
    return dataset;
  }

  @Override
  public long insertCount() {
    return insertCount;
  }

  /** The whole dataset (every client's part of a split load): its restaurants, exactly, as {@code --stats} counts them. */
  @Override
  public Map<DataRole, Long> datasetSize() {
    return Map.of(GeoContract.RESTAURANTS, dataset.size());
  }

  /** A run only searches. */
  @Override
  public boolean runAddsRecords() {
    return false;
  }

  /** What a load fills and a run reads; no other data is prepared, dropped or counted for it. */
  @Override
  public Set<DataRole> dataRoles() {
    return Set.of(GeoContract.RESTAURANTS);
  }

  @Override
  public Set<Class<?>> requiredContracts(boolean loadPhase) {
    return Set.of(GeoContract.class);
  }

  /**
   * Each thread loads a contiguous range of restaurant numbers (the same split as the harness's
   * operation shares) and draws its queries from its own seeded stream.
   */
  @Override
  public Object initThread(Properties properties, int threadId, int threadCount) {
    long share = insertCount / threadCount;
    long extra = insertCount % threadCount;
    long first = insertStart + threadId * share + Math.min(threadId, extra);
    long end = first + share + (threadId < extra ? 1 : 0);
    return new ThreadState(first, end,
        new QuerySession(generator, settings, Seeds.forThread(settings.seed(), "geo-queries", threadId), pagesNotFull));
  }

  @Override
  public boolean doInsert(DB db, Object threadState) {
    ThreadState state = (ThreadState) threadState;
    if (state.nextInsert >= state.endInsert) {
      return false;
    }
    Restaurant restaurant = dataset.restaurant(state.nextInsert++);
    HarnessDB harness = HarnessDB.from(db);
    GeoContract geo = harness.require(GeoContract.class);
    harness.measure("INSERT", () -> geo.insertRestaurant(restaurant));
    return state.nextInsert < state.endInsert;
  }

  @Override
  public boolean doTransaction(DB db, Object threadState) {
    ThreadState state = (ThreadState) threadState;
    HarnessDB harness = HarnessDB.from(db);
    GeoContract geo = harness.require(GeoContract.class);
    QuerySession session = state.session;
    QuerySession.Step step = session.nextStep();
    GeoQuery query = session.nextQuery();
    List<GeoHit> hits = state.hits;
    Status status = harness.measure(step.name(), () -> geo.near(query, hits));
    if (!status.isOk()) {
      hits.clear();
    }
    session.completed(hits);
    return true;
  }

  @Override
  public void cleanup() {
    if (pagesNotFull.sum() > 0) {
      LOG.info("{} sessions wanted a next page after a first page that was not full (they ended instead).",
          pagesNotFull.sum());
    }
  }

  private static final class ThreadState {
    private final long endInsert;
    private final QuerySession session;
    private final List<GeoHit> hits = new ArrayList<>();
    private long nextInsert;

    ThreadState(long first, long end, QuerySession session) {
      this.nextInsert = first;
      this.endInsert = end;
      this.session = session;
    }
  }
}
