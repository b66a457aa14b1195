package org.geoshard.lastlocation.model;

/**
 * 15-digit IMEI-like subscriber ids: "35" (a GSMA reporting body prefix), the user's number in 12
 * digits, and a Luhn check digit as real IMEIs carry.
 */
public final class Imei {
  public static final long MAX_USERS = 1_000_000_000_000L;

  private Imei() {
  }

  public static String of(long user) {
    if (user < 0 || user >= MAX_USERS) {
      throw new IllegalArgumentException("user number out of range: " + user);
    }
    String body = String.format(java.util.Locale.ROOT, "35%012d", user);
    return body + luhn(body);
  }

  /** The Luhn check digit of a string of digits. */
  static int luhn(String digits) {
    int sum = 0;
    for (int i = 0; i < digits.length(); i++) {
      int d = digits.charAt(digits.length() - 1 - i) - '0';
      if (i % 2 == 0) {
        d *= 2;
        if (d > 9) {
          d -= 9;
        }
      }
      sum += d;
    }
    return (10 - sum % 10) % 10;
  }

  /** True for a 15-digit string whose last digit is its Luhn check digit. */
  public static boolean valid(String id) {
    return id.length() == 15 && id.chars().allMatch(Character::isDigit)
        && luhn(id.substring(0, 14)) == id.charAt(14) - '0';
  }
}
