package org.geoshard.lastlocation;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.SplittableRandom;
import org.geoshard.geo.GeoSettings;
import org.geoshard.geo.GeoWorkload;
import org.geoshard.geo.cities.CityFileException;
import org.geoshard.harness.api.DataRole;
import org.geoshard.harness.api.DeclaresData;
import org.geoshard.harness.api.HarnessDB;
import org.geoshard.harness.api.KnowsDatasetSize;
import org.geoshard.harness.api.KnowsInsertCount;
import org.geoshard.harness.api.Outcome;
import org.geoshard.harness.api.RequiresContracts;
import org.geoshard.harness.api.Seeds;
import org.geoshard.harness.api.ThreadGroups;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.config.YcsbCounts;
import org.geoshard.lastlocation.contract.LastLocationContract;
import org.geoshard.lastlocation.contract.LocationEvent;
import org.geoshard.lastlocation.model.Cells;
import org.geoshard.lastlocation.model.EventStream;
import org.geoshard.lastlocation.model.Imei;
import org.geoshard.lastlocation.model.Subscribers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.Workload;
import site.ycsb.WorkloadException;

/**
 * The passive-location stream of a telecom pilot: every event is appended to History
 * ({@code HISTORY_INSERT}) and conditionally upserted into LastKnownLocation ({@code LKL_UPSERT}, or
 * {@code LKL_STALE} when a newer location is stored), while clients ask where a user is now
 * ({@code LKL_READ}), where a user was between two times ({@code HISTORY_RANGE}) and who was last
 * seen near a point ({@code LKL_NEAR}).
 *
 * <p>With {@code ll.write.mode=insertonly} (the pilot's insert-only tables) events are only appended
 * to History and the readers only query History.
 *
 * <p>{@code load} inserts every user's first events. {@code run} has two classes of load at once:
 * the main {@code threadcount} threads read in a closed loop, and {@code ll.writers} writer threads
 * offer {@code ll.insert.rate} events per second (open loop), or walk through {@code ll.sweep.rates}.
 */
public final class LastLocationWorkload extends Workload implements RequiresContracts, DeclaresData, KnowsInsertCount,
    KnowsDatasetSize, ThreadGroups {
  private static final Logger LOG = LoggerFactory.getLogger(LastLocationWorkload.class);
  public static final String WRITERS_GROUP = "writers";

  private LastLocationSettings settings;
  private Subscribers subscribers;
  private int mainThreads;
  private long insertStart;
  private long insertCount;
  private long runStartNanos;

  @Override
  public void init(Properties properties) throws WorkloadException {
    try {
      settings = LastLocationSettings.fromProperties(properties);
      GeoSettings geo = GeoSettings.fromProperties(properties);
      Cells cells = new Cells(GeoWorkload.datasetOf(geo).cities(), settings.cells(), settings.seed());
      subscribers = new Subscribers(cells, settings.users(), settings.eventsPerUserAtLoad(), settings.clockStartMs(),
          settings.seed());
      YcsbCounts counts = YcsbCounts.fromProperties(properties);
      mainThreads = counts.threads();
      insertStart = counts.insertStart();
      insertCount = counts.insertCountOf(settings.users());
      if (counts.insertCount() < 0 && insertStart > 0 && insertStart >= settings.users()) {
        // insertcount unset is the users from insertstart on: here none, which no load can insert.
        throw new ConfigException("Property insertstart (" + insertStart + ") is not below ll.users ("
            + settings.users() + "): no user is left to load from there; set insertstart below " + settings.users() + ".");
      }
      if (insertStart + insertCount > settings.users()) {
        throw new ConfigException("Properties insertstart (" + insertStart + ") + insertcount (" + insertCount
            + ") exceed ll.users (" + settings.users() + ").");
      }
    } catch (ConfigException | CityFileException e) {
      throw new WorkloadException(e.getMessage(), e);
    }
    runStartNanos = System.nanoTime();
  }

  public LastLocationSettings settings() {
    return settings;
  }

  public Subscribers subscribers() {
    return subscribers;
  }

  @Override
  public long insertCount() {
    return insertCount;
  }

  /**
   * What a complete load writes (every client's part): each user's first events in History and, when
   * kept, one LastKnownLocation per user.
   */
  @Override
  public Map<DataRole, Long> datasetSize() {
    long users = settings.users();
    Map<DataRole, Long> size = new java.util.HashMap<>();
    size.put(LastLocationContract.HISTORY, users * settings.eventsPerUserAtLoad());
    if (settings.keepsLastKnownLocation()) {
      size.put(LastLocationContract.LAST_KNOWN, users);
    }
    return size;
  }

  /** The writers append events to History (and upsert LastKnownLocations) throughout a run. */
  @Override
  public boolean runAddsRecords() {
    return true;
  }

  /**
   * The insert-only tables ({@code ll.write.mode=insertonly}) are the insert-only run: the writers only
   * append, and the readers ask History for the last {@code ll.range.hours} of a user, which the
   * writers fill; such a run may start on empty collections. Otherwise the readers ask every user's
   * Last-Known-Location, which only a load gives each user before the run.
   */
  @Override
  public boolean runReadsLoadedData() {
    return settings.keepsLastKnownLocation();
  }

  /** What a load fills and a run reads; no other data is prepared, dropped or counted for it. */
  @Override
  public Set<DataRole> dataRoles() {
    return Set.of(LastLocationContract.HISTORY, LastLocationContract.LAST_KNOWN);
  }

  @Override
  public Set<Class<?>> requiredContracts(boolean loadPhase) {
    return Set.of(LastLocationContract.class);
  }

  @Override
  public List<ThreadGroup> threadGroups() {
    List<Double> rates = settings.sweepRates().isEmpty() ? List.of(settings.insertRate()) : settings.sweepRates();
    return List.of(new ThreadGroup(WRITERS_GROUP, settings.writers(), rates, settings.sweepInterval()));
  }

  /** The simulated clock: {@code ll.clock.start} plus the time since the run started. */
  long clockMs() {
    return settings.clockStartMs() + (System.nanoTime() - runStartNanos) / 1_000_000;
  }

  @Override
  public Object initThread(Properties properties, int threadId, int threadCount) {
    SplittableRandom random = Seeds.forThread(settings.seed(), "lastlocation", threadId);
    if (threadId >= mainThreads && threadId < mainThreads + settings.writers()) {
      int writer = threadId - mainThreads;
      return new Writer(new EventStream(subscribers, writer, settings.writers(), settings.moveProbability(),
          settings.outOfOrder(), settings.maxDelayMs(), random, this::clockMs));
    }
    // Loads: each thread a contiguous range of users, the same split as the harness's shares.
    long share = insertCount / threadCount;
    long extra = insertCount % threadCount;
    long first = insertStart + threadId * share + Math.min(threadId, extra);
    return new Reader(random, first, first + share + (threadId < extra ? 1 : 0));
  }

  @Override
  public boolean doInsert(DB db, Object threadState) {
    Reader state = (Reader) threadState;
    if (state.nextUser >= state.endUser) {
      return false;
    }
    LocationEvent[] events = subscribers.loadEvents(state.nextUser++);
    HarnessDB harness = HarnessDB.from(db);
    LastLocationContract ll = harness.require(LastLocationContract.class);
    for (LocationEvent event : events) {
      harness.measure("HISTORY_INSERT", () -> ll.appendHistory(event));
    }
    if (settings.keepsLastKnownLocation()) {
      upsert(harness, ll, events[events.length - 1]);
    }
    return state.nextUser < state.endUser;
  }

  @Override
  public boolean doTransaction(DB db, Object threadState) {
    HarnessDB harness = HarnessDB.from(db);
    LastLocationContract ll = harness.require(LastLocationContract.class);
    if (threadState instanceof Writer writer) {
      LocationEvent event = writer.events.next();
      harness.measure("HISTORY_INSERT", () -> ll.appendHistory(event));
      if (settings.keepsLastKnownLocation()) {
        upsert(harness, ll, event);
      }
      return true;
    }
    Reader reader = (Reader) threadState;
    SplittableRandom random = reader.random;
    List<LocationEvent> out = reader.out;
    double u = random.nextDouble();
    if (u < settings.readLkl()) {
      String user = Imei.of(random.nextLong(settings.users()));
      harness.measure("LKL_READ", () -> ll.readLastLocation(user, out));
    } else if (u < settings.readLkl() + settings.readRange()) {
      String user = Imei.of(random.nextLong(settings.users()));
      long to = clockMs();
      long from = to - settings.rangeMs();
      harness.measure("HISTORY_RANGE", () -> ll.historyRange(user, from, to, out));
    } else {
      int cell = random.nextInt(subscribers.cells().count());
      double lon = subscribers.cells().longitude(cell);
      double lat = subscribers.cells().latitude(cell);
      harness.measure("LKL_NEAR", () -> ll.usersNear(lon, lat, settings.nearRadiusMeters(), settings.nearLimit(), out));
    }
    return true;
  }

  /** An upsert that found a newer stored location is LKL_STALE, and not an error. */
  private static void upsert(HarnessDB harness, LastLocationContract ll, LocationEvent event) {
    harness.measure(() -> ll.upsertLastLocation(event), status -> status == LastLocationContract.STALE
        ? new Outcome("LKL_STALE", true) : new Outcome("LKL_UPSERT", status.isOk()));
  }

  @Override
  public void cleanup() {
    LOG.debug("last-location workload done");
  }

  private static final class Writer {
    private final EventStream events;

    Writer(EventStream events) {
      this.events = events;
    }
  }

  private static final class Reader {
    private final SplittableRandom random;
    private final List<LocationEvent> out = new ArrayList<>();
    private final long endUser;
    private long nextUser;

    Reader(SplittableRandom random, long first, long end) {
      this.random = random;
      this.nextUser = first;
      this.endUser = end;
    }
  }
}
