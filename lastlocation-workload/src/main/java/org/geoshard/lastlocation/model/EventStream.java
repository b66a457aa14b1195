package org.geoshard.lastlocation.model;

import java.util.SplittableRandom;
import java.util.function.LongSupplier;
import org.geoshard.lastlocation.contract.LocationEvent;

/**
 * The events of one writer thread. Writer w of W owns the users u with u mod W = w, so every user's
 * order is decided by one thread. Each event picks one of the writer's users uniformly; the user
 * moves to a nearby cell with probability {@code moveProbability} or stays; its timestamp is the
 * simulated clock (which starts at {@code ll.clock.start} and runs at real speed, so that events
 * arrive at the offered rate), kept strictly increasing per user. With probability
 * {@code outOfOrder} the event arrives late instead: older than the user's last event, by up to
 * {@code maxDelayMs}; it goes to History but must never replace the last known location.
 */
public final class EventStream {
  private final Subscribers subscribers;
  private final int writer;
  private final int writers;
  private final double moveProbability;
  private final double outOfOrder;
  private final long maxDelayMs;
  private final SplittableRandom random;
  private final LongSupplier clockMs;
  private final long[] lastTimestamp;
  private final int[] cell;
  private long late;

  public EventStream(Subscribers subscribers, int writer, int writers, double moveProbability, double outOfOrder,
      long maxDelayMs, SplittableRandom random, LongSupplier clockMs) {
    if (writer < 0 || writer >= writers) {
      throw new IllegalArgumentException("writer " + writer + " of " + writers);
    }
    this.subscribers = subscribers;
    this.writer = writer;
    this.writers = writers;
    this.moveProbability = moveProbability;
    this.outOfOrder = outOfOrder;
    this.maxDelayMs = maxDelayMs;
    this.random = random;
    this.clockMs = clockMs;
    long owned = (subscribers.count() - writer + writers - 1) / writers;
    if (owned > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("too many users per writer: " + owned + "; use more writers");
    }
    lastTimestamp = new long[(int) owned];
    cell = new int[(int) owned];
    for (int i = 0; i < owned; i++) {
      long user = writer + (long) i * writers;
      lastTimestamp[i] = subscribers.lastLoadTimestamp(user);
      cell[i] = subscribers.initialCell(user);
    }
  }

  /** Events so far that arrived late (older than their user's last event). */
  public long lateEvents() {
    return late;
  }

  public LocationEvent next() {
    if (lastTimestamp.length == 0) {
      throw new IllegalStateException("writer " + writer + " owns no users (ll.users < ll.writers)");
    }
    int i = random.nextInt(lastTimestamp.length);
    long user = writer + (long) i * writers;
    boolean isLate = random.nextDouble() < outOfOrder;
    Cells cells = subscribers.cells();
    long ts;
    int at;
    if (isLate) {
      ts = lastTimestamp[i] - 1 - random.nextLong(Math.max(1, maxDelayMs));
      at = cells.nearby(cell[i], random);
      late++;
    } else {
      if (random.nextDouble() < moveProbability) {
        cell[i] = cells.nearby(cell[i], random);
      }
      at = cell[i];
      ts = Math.max(clockMs.getAsLong(), lastTimestamp[i] + 1);
      lastTimestamp[i] = ts;
    }
    return new LocationEvent(Imei.of(user), at, ts, cells.latitude(at), cells.longitude(at));
  }
}
