package org.geoshard.harness.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.geoshard.harness.api.Secrets;
import org.geoshard.harness.config.PropertyCatalog;
import org.geoshard.harness.config.RecordingProperties;

/**
 * The property names the harness reads, and the prefixes it owns. The names are those that
 * {@link RunSettings#fromProperties} asks for (it reads the ramp's, the I/O tracer's, the explain
 * sampler's and the server sampler's settings too), recorded once, not listed by hand: a name a
 * reader gains is known at once, and no name is known that no reader reads.
 */
public final class HarnessProperties implements PropertyCatalog {
  /**
   * Names the harness sets for the workload and the binding rather than reads (as YCSB's Client sets
   * {@code dotransactions}): known, so that a scenario file that sets one is not told it is a typo.
   */
  static final Set<String> SET_BY_HARNESS = Set.of(RunSettings.DO_TRANSACTIONS, RunSettings.CLIENT_THREADS);

  @Override
  public Set<String> prefixes() {
    return Set.of("results.", "stats.", "ramp.", "sla.", "status.", "giveup.", "trace.", "observe.");
  }

  @Override
  public Set<String> names() {
    return Names.ALL;
  }

  /** What {@link RunSettings#fromProperties} reads, from any properties (it reads every name it knows). */
  static Set<String> readBySettings() {
    return RecordingProperties.namesReadBy(properties -> RunSettings.fromProperties(Phase.RUN, properties, "default"));
  }

  @Override
  public boolean checkedFirst() {
    return true;
  }

  /** Every property, whoever reads it: a URL whose password would be split at the wrong '@'. */
  @Override
  public List<String> problems(Properties properties) {
    List<String> problems = new ArrayList<>();
    for (String name : new TreeSet<>(properties.stringPropertyNames())) {
      String value = properties.getProperty(name);
      if (Secrets.hasUnencodedPassword(value)) {
        problems.add("Property '" + name + "': the password in " + Secrets.maskText(value) + " holds an unencoded '@';"
            + " percent-encode it ('@' is %40, ':' is %3A, '/' is %2F).");
      }
    }
    return problems;
  }

  /** Recorded once, when first asked for. */
  private static final class Names {
    static final Set<String> ALL;

    static {
      Set<String> all = new TreeSet<>(readBySettings());
      all.addAll(SET_BY_HARNESS);
      ALL = Set.copyOf(all);
    }
  }
}
