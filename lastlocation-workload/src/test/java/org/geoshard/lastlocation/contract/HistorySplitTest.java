package org.geoshard.lastlocation.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class HistorySplitTest {
  private static long at(String instant) {
    return Instant.parse(instant).toEpochMilli();
  }

  @Test
  void suffixesAndBoundsFollowUtcMonthsAndDays() {
    long t = at("2026-02-28T23:59:59.999Z");
    assertThat(HistorySplit.MONTH.suffix(t)).isEqualTo("2026_02");
    assertThat(HistorySplit.DAY.suffix(t)).isEqualTo("2026_02_28");
    assertThat(HistorySplit.NONE.suffix(t)).isEmpty();
    assertThat(HistorySplit.MONTH.bounds(t)).containsExactly(at("2026-02-01T00:00:00Z"), at("2026-03-01T00:00:00Z"));
    assertThat(HistorySplit.DAY.bounds(t)).containsExactly(at("2026-02-28T00:00:00Z"), at("2026-03-01T00:00:00Z"));
  }

  @Test
  void aRangeTouchesEverySplitItOverlaps() {
    long from = at("2025-12-31T22:00:00Z");
    long to = at("2026-01-02T01:00:00Z");
    assertThat(HistorySplit.DAY.suffixes(from, to)).containsExactly("2025_12_31", "2026_01_01", "2026_01_02");
    assertThat(HistorySplit.MONTH.suffixes(from, to)).containsExactly("2025_12", "2026_01");
    assertThat(HistorySplit.NONE.suffixes(from, to)).containsExactly("");
    assertThat(HistorySplit.DAY.suffixes(to, to)).containsExactly("2026_01_02");
  }
}
