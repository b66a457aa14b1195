package org.geoshard.harness.config;

import java.util.List;
import java.util.Properties;
import java.util.Set;

/**
 * The property names a module owns, found with {@link java.util.ServiceLoader}. A name under one of
 * the {@link #prefixes()} that no catalog knows is a typo, and the harness refuses it before the run
 * starts (YCSB silently ignores it, and the user measures something other than intended).
 */
public interface PropertyCatalog {
  /** Prefixes this module owns, each ending with a dot, such as {@code "geo."}. */
  Set<String> prefixes();

  /**
   * Every property name this module reads, including those outside its prefixes. A name ending in
   * {@code .*} stands for every name that starts with what comes before the {@code *}, for names the
   * user makes (e.g. {@code mongodb.targeted.mongos.*} for one router per shard id).
   */
  Set<String> names();

  /**
   * One sentence per malformed value among this module's properties, checked before anything starts
   * (so that {@code mongodb.writeConcern=sometimes} is a usage error, not a failed start).
   */
  default List<String> problems(Properties properties) {
    return List.of();
  }

  /**
   * True for the harness's own catalog, whose problems are said first: a property it has found fault
   * with (a URL with an unencoded '@') is not faulted again by a module's catalog.
   */
  default boolean checkedFirst() {
    return false;
  }

  /** {@link #problems} from a settings reader that throws {@link ConfigException}. */
  static List<String> problemsOf(SettingsReader reader, Properties properties) {
    try {
      reader.read(properties);
      return List.of();
    } catch (ConfigException e) {
      return e.problems();
    }
  }

  /** Reads a module's settings, as its {@code fromProperties} does. */
  @FunctionalInterface
  interface SettingsReader {
    void read(Properties properties) throws ConfigException;
  }
}
