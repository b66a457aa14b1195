package org.geoshard.lastlocation;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.geoshard.lastlocation.contract.LastLocationContract;
import org.geoshard.lastlocation.contract.LocationEvent;
import site.ycsb.Status;

/**
 * The same events and range queries for every binding's test that a time-split History answers as
 * the unsplit one: events a few days either side of a month's end, a few users, distinct timestamps.
 */
public final class SplitScenario {
  public static final long START = Instant.parse("2026-01-30T00:00:00Z").toEpochMilli();

  private SplitScenario() {
  }

  public static LocationEvent event(String user, long ts, int cell) {
    return new LocationEvent(user, cell, ts, 50 + cell * 0.001, 20 + cell * 0.001);
  }

  public static String user(int i) {
    return "35000000000" + (1000 + i);
  }

  /** {@code count} events of {@code users} users, {@code spacingMs} apart from {@link #START}. */
  public static List<LocationEvent> events(int count, int users, long spacingMs) {
    List<LocationEvent> events = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      events.add(event(user(i % users), START + i * spacingMs + i % users, i % 50));
    }
    return events;
  }

  /** The answers of {@code queries} seeded range queries (up to three days within five) on {@code db}. */
  public static List<List<LocationEvent>> ranges(LastLocationContract db, int queries, int users) {
    SplittableRandom random = new SplittableRandom(8);
    List<List<LocationEvent>> answers = new ArrayList<>();
    for (int i = 0; i < queries; i++) {
      String user = user(random.nextInt(users));
      long from = START + random.nextLong(5L * 86_400_000);
      long to = from + random.nextLong(3L * 86_400_000);
      List<LocationEvent> out = new ArrayList<>();
      if (db.historyRange(user, from, to, out) != Status.OK) {
        throw new IllegalStateException("range query failed for " + user);
      }
      answers.add(out);
    }
    return answers;
  }
}
