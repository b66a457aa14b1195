package org.geoshard.lastlocation.contract;

import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How History is split by time ({@code ll.history.split}): not at all, by UTC month or by UTC day.
 * Inserts go to the split of their timestamp; a range query reads every split it touches and merges
 * the answers. Bindings name their collections or partitions {@code <base>_<suffix>}.
 */
public enum HistorySplit {
  NONE,
  MONTH,
  DAY;

  private static final DateTimeFormatter MONTHLY = DateTimeFormatter.ofPattern("yyyy_MM", Locale.ROOT);
  private static final DateTimeFormatter DAILY = DateTimeFormatter.ofPattern("yyyy_MM_dd", Locale.ROOT);

  /** The suffix of the split that holds a timestamp ("" when not split). */
  public String suffix(long timestampMs) {
    LocalDate day = Instant.ofEpochMilli(timestampMs).atZone(ZoneOffset.UTC).toLocalDate();
    return switch (this) {
      case NONE -> "";
      case MONTH -> MONTHLY.format(day);
      case DAY -> DAILY.format(day);
    };
  }

  /** [first, end) in epoch milliseconds of the split holding a timestamp. */
  public long[] bounds(long timestampMs) {
    LocalDate day = Instant.ofEpochMilli(timestampMs).atZone(ZoneOffset.UTC).toLocalDate();
    return switch (this) {
      case NONE -> new long[] {Long.MIN_VALUE, Long.MAX_VALUE};
      case MONTH -> {
        YearMonth month = YearMonth.from(day);
        yield new long[] {epochMs(month.atDay(1)), epochMs(month.plusMonths(1).atDay(1))};
      }
      case DAY -> new long[] {epochMs(day), epochMs(day.plusDays(1))};
    };
  }

  /** The suffixes of every split that [fromMs, toMs] touches, oldest first. */
  public List<String> suffixes(long fromMs, long toMs) {
    List<String> suffixes = new ArrayList<>();
    if (this == NONE) {
      suffixes.add("");
      return suffixes;
    }
    long at = fromMs;
    while (at <= toMs) {
      suffixes.add(suffix(at));
      at = bounds(at)[1];
    }
    return suffixes;
  }

  private static long epochMs(LocalDate day) {
    return day.atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
  }
}
