package org.geoshard.harness.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.stream.Collectors;

/**
 * Reads typed values out of YCSB-style properties and collects every malformed one, so that a
 * user sees all mistakes in one go: call the readers, then {@link #throwIfProblems()}.
 *
 * <p>Each reader returns the default when a value is malformed, which lets the caller keep going and
 * find the next problem. Messages name the property, the value given and what was expected.
 */
public final class PropertyReader {
  private final Properties properties;
  private final List<String> problems = new ArrayList<>();
  /** Properties whose value was refused: checks that combine them with others must not guess their value. */
  private final java.util.Set<String> refused = new java.util.HashSet<>();

  public PropertyReader(Properties properties) {
    this.properties = properties;
  }

  public Properties properties() {
    return properties;
  }

  /** The trimmed value, or null when the property is absent or blank. */
  public String raw(String name) {
    String value = properties.getProperty(name);
    if (value == null) {
      return null;
    }
    value = value.trim();
    return value.isEmpty() ? null : value;
  }

  public boolean isSet(String name) {
    return raw(name) != null;
  }

  public String string(String name, String defaultValue) {
    String value = raw(name);
    return value == null ? defaultValue : value;
  }

  public long longAtLeast(String name, long defaultValue, long min) {
    String value = raw(name);
    if (value == null) {
      return defaultValue;
    }
    try {
      long parsed = Long.parseLong(value.replace("_", ""));
      if (parsed < min) {
        problem(name, value, "a whole number of at least " + min);
        return defaultValue;
      }
      return parsed;
    } catch (NumberFormatException e) {
      problem(name, value, "a whole number of at least " + min
          + (value.replace("_", "").matches("\\d{19,}") ? " and at most " + Long.MAX_VALUE : ""));
      return defaultValue;
    }
  }

  public int intInRange(String name, int defaultValue, int min, int max) {
    String value = raw(name);
    if (value == null) {
      return defaultValue;
    }
    String expected = "a whole number from " + min + " to " + max;
    try {
      int parsed = Integer.parseInt(value.replace("_", ""));
      if (parsed < min || parsed > max) {
        problem(name, value, expected);
        return defaultValue;
      }
      return parsed;
    } catch (NumberFormatException e) {
      problem(name, value, expected);
      return defaultValue;
    }
  }

  public double doubleInRange(String name, double defaultValue, double min, double max) {
    String value = raw(name);
    if (value == null) {
      return defaultValue;
    }
    String expected = "a number from " + trim(min) + " to " + trim(max);
    try {
      double parsed = Double.parseDouble(value);
      if (!(parsed >= min && parsed <= max)) {
        problem(name, value, expected);
        return defaultValue;
      }
      return parsed;
    } catch (NumberFormatException e) {
      problem(name, value, expected);
      return defaultValue;
    }
  }

  public boolean bool(String name, boolean defaultValue) {
    String value = raw(name);
    if (value == null) {
      return defaultValue;
    }
    switch (value.toLowerCase(Locale.ROOT)) {
      case "true":
        return true;
      case "false":
        return false;
      default:
        problem(name, value, "true or false");
        return defaultValue;
    }
  }

  /** A whole number of seconds, at least {@code minSeconds}. */
  public Duration seconds(String name, Duration defaultValue, long minSeconds) {
    long seconds = longAtLeast(name, defaultValue.toSeconds(), minSeconds);
    return Duration.ofSeconds(seconds);
  }

  /**
   * One of an enum's constants, matched case-insensitively and ignoring '-' and '_', so that
   * {@code geo.paging=mindistance}, {@code min-distance} and {@code MIN_DISTANCE} all name
   * {@code MIN_DISTANCE}.
   */
  public <E extends Enum<E>> E choice(String name, E defaultValue, Class<E> type) {
    String value = raw(name);
    if (value == null) {
      return defaultValue;
    }
    String wanted = squash(value);
    for (E constant : type.getEnumConstants()) {
      if (squash(constant.name()).equals(wanted)) {
        return constant;
      }
    }
    String allowed = Arrays.stream(type.getEnumConstants())
        .map(PropertyReader::choiceName)
        .collect(Collectors.joining(", "));
    problem(name, value, "one of " + allowed);
    return defaultValue;
  }

  /** How {@link #choice} spells a constant for people: {@code MIN_DISTANCE} is {@code mindistance}. */
  public static String choiceName(Enum<?> constant) {
    return squash(constant.name()).toLowerCase(Locale.ROOT);
  }

  private static String squash(String text) {
    return text.replace("-", "").replace("_", "").toUpperCase(Locale.ROOT);
  }

  /** Records a problem that is not about one malformed value (e.g. two properties that disagree). */
  public void problem(String sentence) {
    problems.add(sentence);
  }

  public List<String> problems() {
    return List.copyOf(problems);
  }

  public void throwIfProblems() throws ConfigException {
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
  }

  /**
   * A value as an error line may quote it: as given, or marked as the default when the user did not set
   * the property (a default must not read as something the user wrote).
   */
  public String quoted(String name, Object value) {
    return isSet(name) ? String.valueOf(value) : value + ", the default";
  }

  /** True when this property's value was refused (its default stood in for it). */
  public boolean refused(String name) {
    return refused.contains(name);
  }

  private void problem(String name, String value, String expected) {
    refused.add(name);
    problems.add("Property '" + name + "' must be " + expected + ", but is '" + value + "'.");
  }

  private static String trim(double value) {
    return value == Math.rint(value) && Math.abs(value) < 1e15
        ? Long.toString((long) value) : Double.toString(value);
  }
}
