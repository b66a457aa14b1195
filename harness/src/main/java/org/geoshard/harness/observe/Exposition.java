package org.geoshard.harness.observe;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses Prometheus's text exposition format (version 0.0.4, what {@code node_exporter} serves):
 * one sample per line, {@code name{label="value",...} value [timestamp]}, comments and type hints
 * after {@code #}. A line that does not parse is skipped: one odd metric must not cost the others.
 */
final class Exposition {
  /** One sample: metric name, labels in their order, value. */
  record Sample(String name, Map<String, String> labels, double value) {
  }

  private Exposition() {
  }

  static List<Sample> parse(String text) {
    List<Sample> samples = new ArrayList<>();
    for (String line : text.split("\n")) {
      String trimmed = line.strip();
      if (trimmed.isEmpty() || trimmed.charAt(0) == '#') {
        continue;
      }
      Sample sample = parseLine(trimmed);
      if (sample != null) {
        samples.add(sample);
      }
    }
    return samples;
  }

  private static Sample parseLine(String line) {
    int i = 0;
    while (i < line.length() && line.charAt(i) != '{' && !Character.isWhitespace(line.charAt(i))) {
      i++;
    }
    String name = line.substring(0, i);
    if (name.isEmpty()) {
      return null;
    }
    Map<String, String> labels = new LinkedHashMap<>();
    if (i < line.length() && line.charAt(i) == '{') {
      i = parseLabels(line, i + 1, labels);
      if (i < 0) {
        return null;
      }
    }
    String[] rest = line.substring(i).strip().split("\\s+");
    if (rest.length == 0 || rest[0].isEmpty()) {
      return null;
    }
    Double value = number(rest[0]);
    return value == null ? null : new Sample(name, labels, value);
  }

  /** Parses labels from just after '{'; returns the index after '}', or -1 when malformed. */
  private static int parseLabels(String line, int start, Map<String, String> labels) {
    int i = start;
    while (i < line.length()) {
      while (i < line.length() && (line.charAt(i) == ',' || line.charAt(i) == ' ')) {
        i++;
      }
      if (i < line.length() && line.charAt(i) == '}') {
        return i + 1;
      }
      int eq = line.indexOf('=', i);
      if (eq < 0 || eq + 1 >= line.length() || line.charAt(eq + 1) != '"') {
        return -1;
      }
      String key = line.substring(i, eq).strip();
      StringBuilder value = new StringBuilder();
      int j = eq + 2;
      for (; j < line.length() && line.charAt(j) != '"'; j++) {
        char c = line.charAt(j);
        if (c == '\\' && j + 1 < line.length()) {
          char next = line.charAt(++j);
          value.append(next == 'n' ? '\n' : next);
        } else {
          value.append(c);
        }
      }
      if (j >= line.length()) {
        return -1;
      }
      labels.put(key, value.toString());
      i = j + 1;
    }
    return -1;
  }

  private static Double number(String text) {
    switch (text) {
      case "NaN":
        return Double.NaN;
      case "+Inf":
        return Double.POSITIVE_INFINITY;
      case "-Inf":
        return Double.NEGATIVE_INFINITY;
      default:
        try {
          return Double.parseDouble(text);
        } catch (NumberFormatException e) {
          return null;
        }
    }
  }
}
