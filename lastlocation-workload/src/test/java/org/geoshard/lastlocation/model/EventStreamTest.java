package org.geoshard.lastlocation.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.geoshard.geo.TestCities;
import org.geoshard.lastlocation.contract.LocationEvent;
import org.junit.jupiter.api.Test;

class EventStreamTest {
  private static final long CLOCK_START = 1_767_225_600_000L;  // 2026-01-01T00:00:00Z
  private final Subscribers subscribers = new Subscribers(new Cells(TestCities.FIVE, 500, 1), 1_000, 2, CLOCK_START, 1);

  private EventStream stream(int writer, int writers, double move, double late, AtomicLong clock, long seed) {
    return new EventStream(subscribers, writer, writers, move, late, 60_000, new SplittableRandom(seed),
        clock::getAndIncrement);
  }

  @Test
  void theLoadLeavesEveryUserWithItsEventsBeforeTheClockStarts() {
    LocationEvent[] events = subscribers.loadEvents(17);
    assertThat(events).hasSize(2);
    assertThat(events[0].timestampMs()).isLessThan(events[1].timestampMs());
    assertThat(events[1].timestampMs()).isEqualTo(subscribers.lastLoadTimestamp(17)).isLessThan(CLOCK_START);
    assertThat(events[1].userId()).isEqualTo(Imei.of(17));
    assertThat(subscribers.loadEvents(17)).containsExactly(events);
  }

  @Test
  void inOrderEventsAreNewerThanEverythingBeforeAndLateOnesOlderThanTheUsersLast() {
    AtomicLong clock = new AtomicLong(CLOCK_START);
    EventStream stream = stream(1, 4, 0.3, 0.05, clock, 9);
    Map<String, Long> last = new HashMap<>();
    for (long u = 1; u < 1_000; u += 4) {
      last.put(Imei.of(u), subscribers.lastLoadTimestamp(u));
    }
    int n = 40_000;
    int late = 0;
    for (int i = 0; i < n; i++) {
      LocationEvent e = stream.next();
      assertThat(last).containsKey(e.userId());  // writer 1 of 4 owns users 1, 5, 9, ...
      long previous = last.get(e.userId());
      if (e.timestampMs() > previous) {
        last.put(e.userId(), e.timestampMs());
      } else {
        late++;
        assertThat(e.timestampMs()).isGreaterThanOrEqualTo(previous - 60_001);
      }
    }
    assertThat(late).isEqualTo((int) stream.lateEvents());
    // Binomial(40,000, 0.05): sd 44; 5 sd either way.
    assertThat(late).isBetween(2000 - 220, 2000 + 220);
  }

  @Test
  void usersMoveWithTheGivenProbability() {
    AtomicLong clock = new AtomicLong(CLOCK_START);
    EventStream stream = stream(0, 1, 0.3, 0, clock, 4);
    Map<String, Integer> cell = new HashMap<>();
    int moves = 0;
    int chances = 0;
    double expected = 0;
    for (int i = 0; i < 50_000; i++) {
      LocationEvent e = stream.next();
      Integer before = cell.put(e.userId(), e.cellId());
      if (before == null) {
        long user = Long.parseLong(e.userId().substring(2, 14));
        before = subscribers.initialCell(user);
      }
      chances++;
      // A move picks a cell of the same city, possibly the same one.
      expected += 0.3 * (1 - 1.0 / subscribers.cells().cellsInCity(before));
      if (e.cellId() != before) {
        moves++;
      }
    }
    double sd = Math.sqrt(expected * (1 - expected / chances));
    assertThat((double) moves).isCloseTo(expected, org.assertj.core.api.Assertions.within(5 * sd));
  }

  @Test
  void theSameSeedGivesTheSameEvents() {
    EventStream a = stream(0, 2, 0.3, 0.1, new AtomicLong(CLOCK_START), 5);
    EventStream b = stream(0, 2, 0.3, 0.1, new AtomicLong(CLOCK_START), 5);
    for (int i = 0; i < 1000; i++) {
      assertThat(a.next()).isEqualTo(b.next());
    }
  }
}
