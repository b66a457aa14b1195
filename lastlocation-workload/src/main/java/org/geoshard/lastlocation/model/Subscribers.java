package org.geoshard.lastlocation.model;

import java.util.SplittableRandom;
import org.geoshard.harness.api.Seeds;
import org.geoshard.lastlocation.contract.LocationEvent;

/**
 * The subscribers and where the load leaves them: user u starts at a cell drawn uniformly from all
 * cells (so bigger cities have more users) and has {@code eventsAtLoad} events, one minute apart,
 * the last one just before the run's clock starts. A pure function of (seed, u).
 */
public final class Subscribers {
  /** Spacing of the load's events of one user. */
  public static final long LOAD_SPACING_MS = 60_000;

  private final Cells cells;
  private final long users;
  private final int eventsAtLoad;
  private final long clockStartMs;
  private final long userSeeds;

  public Subscribers(Cells cells, long users, int eventsAtLoad, long clockStartMs, long seed) {
    this.cells = cells;
    this.users = users;
    this.eventsAtLoad = eventsAtLoad;
    this.clockStartMs = clockStartMs;
    this.userSeeds = Seeds.stream(seed, "subscriber");
  }

  public long count() {
    return users;
  }

  public int eventsAtLoad() {
    return eventsAtLoad;
  }

  public long clockStartMs() {
    return clockStartMs;
  }

  public Cells cells() {
    return cells;
  }

  public int initialCell(long user) {
    return new SplittableRandom(Seeds.at(userSeeds, user)).nextInt(cells.count());
  }

  /** Timestamp of the user's newest load event: before the clock start, distinct per user. */
  public long lastLoadTimestamp(long user) {
    return clockStartMs - 1 - (user % 1000);
  }

  /** The user's load events, oldest first; the last one is the user's last known location. */
  public LocationEvent[] loadEvents(long user) {
    String id = Imei.of(user);
    int cell = initialCell(user);
    LocationEvent[] events = new LocationEvent[eventsAtLoad];
    for (int i = 0; i < eventsAtLoad; i++) {
      long ts = lastLoadTimestamp(user) - (eventsAtLoad - 1 - i) * LOAD_SPACING_MS;
      events[i] = new LocationEvent(id, cell, ts, cells.latitude(cell), cells.longitude(cell));
    }
    return events;
  }
}
