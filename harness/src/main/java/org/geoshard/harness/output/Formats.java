package org.geoshard.harness.output;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** Number formatting that never depends on the machine's locale. */
public final class Formats {
  private Formats() {
  }

  /** A plain decimal (no exponent, no grouping) with at most {@code places} decimals. */
  public static String decimal(double value, int places) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      return "";
    }
    return BigDecimal.valueOf(value).setScale(places, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
  }

  /** A whole number with thousands separators, for people. */
  public static String grouped(long value) {
    return String.format(java.util.Locale.US, "%,d", value);
  }
}
