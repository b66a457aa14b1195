package org.geoshard.harness.config;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Finds properties under an owned prefix that no module reads (suggesting the name meant), and asks
 * every module to check its values, before anything starts. A name outside every prefix may belong to
 * a YCSB binding or workload geoshard does not know, so it is not refused; but when it is close to a
 * known name (geoshard's or YCSB's own, e.g. {@code recordcont}) it is worth a warning.
 */
public final class UnknownProperties {
  private final Set<String> prefixes = new HashSet<>();
  private final Set<String> names = new HashSet<>();
  private final Set<String> namePatterns = new HashSet<>();
  private final List<PropertyCatalog> catalogs = new ArrayList<>();
  private final Set<String> ycsbNames = YcsbPropertyNames.all();

  public UnknownProperties(Iterable<PropertyCatalog> catalogs) {
    for (PropertyCatalog catalog : catalogs) {
      this.catalogs.add(catalog);
      prefixes.addAll(catalog.prefixes());
      for (String name : catalog.names()) {
        if (name.endsWith(".*")) {
          namePatterns.add(name.substring(0, name.length() - 1));
        } else {
          names.add(name);
        }
      }
    }
  }

  /** Uses every catalog on the class path. */
  public static UnknownProperties fromClassPath() {
    return new UnknownProperties(ServiceLoader.load(PropertyCatalog.class));
  }

  /**
   * Every name a module or YCSB reads, sorted; a name the user makes ends in {@code *}
   * ({@code mongodb.targeted.mongos.*}). What {@code bin/test docs} checks the READMEs' names against.
   */
  public SortedSet<String> knownNames() {
    SortedSet<String> known = new TreeSet<>(names);
    known.addAll(ycsbNames);
    namePatterns.forEach(pattern -> known.add(pattern + "*"));
    return known;
  }

  /**
   * One sentence per unknown property (sorted by name), then every module's malformed values, the
   * harness's first; a property one module has found fault with is not faulted again by the next (a
   * URL with an unencoded '@' is said once, not again as each module's driver fails to parse it).
   */
  public List<String> problems(Properties properties) {
    return problems(properties, List.of());
  }

  /**
   * {@link #problems(Properties)} with the problems a caller found itself (the harness's settings, read by
   * the command) placed first among the malformed values: a property they name is not faulted again by a
   * module that reads the same name ({@code status.interval}, read by the harness and by binding-postgis).
   */
  public List<String> problems(Properties properties, List<String> alreadyFound) {
    List<String> problems = unknown(properties);
    Set<String> named = new HashSet<>();
    for (String problem : alreadyFound) {
      if (!problems.contains(problem)) {
        problems.add(problem);
      }
      String property = propertyNamed(problem);
      if (property != null) {
        named.add(property);
      }
    }
    List<PropertyCatalog> harnessFirst = catalogs.stream()
        .sorted(Comparator.comparing(catalog -> catalog.checkedFirst() ? 0 : 1)).toList();
    for (PropertyCatalog catalog : harnessFirst) {
      Set<String> namedHere = new HashSet<>();
      for (String problem : catalog.problems(properties)) {
        String property = propertyNamed(problem);
        if (property == null || !named.contains(property)) {
          problems.add(problem);
          if (property != null) {
            namedHere.add(property);
          }
        }
      }
      named.addAll(namedHere);
    }
    return problems;
  }

  /** The property a problem begins by naming ({@code Property 'x' ...}), or null. */
  private static String propertyNamed(String problem) {
    if (!problem.startsWith("Property '")) {
      return null;
    }
    int end = problem.indexOf('\'', "Property '".length());
    return end < 0 ? null : problem.substring("Property '".length(), end);
  }

  /**
   * One sentence per property outside every owned prefix that nobody is known to read and whose name
   * is close to a known one: probably a typo that YCSB would silently ignore.
   */
  public List<String> warnings(Properties properties) {
    List<String> warnings = new ArrayList<>();
    for (String name : new TreeSet<>(properties.stringPropertyNames())) {
      if (names.contains(name) || ycsbNames.contains(name) || namePatterns.stream().anyMatch(name::startsWith)
          || prefixes.stream().anyMatch(name::startsWith)) {
        continue;
      }
      String suggestion = closest(name, Math.max(1, name.length() / 4));
      if (suggestion != null) {
        warnings.add("Property '" + name + "' is read by no module geoshard knows; did you mean '" + suggestion
            + "'? (It is kept, for a binding or workload that reads it.)");
      }
    }
    return warnings;
  }

  private List<String> unknown(Properties properties) {
    List<String> problems = new ArrayList<>();
    for (String name : new TreeSet<>(properties.stringPropertyNames())) {
      if (names.contains(name) || namePatterns.stream().anyMatch(name::startsWith)
          || prefixes.stream().noneMatch(name::startsWith)) {
        continue;
      }
      String suggestion = closest(name, Math.max(2, name.length() / 4));
      problems.add("Property '" + name + "' is unknown"
          + (suggestion == null ? "." : "; did you mean '" + suggestion + "'?"));
    }
    return problems;
  }

  private String closest(String name, int maxDistance) {
    return Stream.concat(names.stream(), ycsbNames.stream())
        .filter(candidate -> editDistance(name, candidate) <= maxDistance)
        .min(Comparator.comparingInt((String candidate) -> editDistance(name, candidate))
            .thenComparing(Comparator.naturalOrder()))
        .orElse(null);
  }

  static int editDistance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
