package org.geoshard.mongodb;

import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.config.PropertyCatalog;
import org.geoshard.harness.config.RecordingProperties;

/** The property names the MongoDB binding reads, and its prefix: an unknown {@code mongodb.*} name is refused. */
public final class MongoProperties implements PropertyCatalog {
  @Override
  public Set<String> prefixes() {
    return Set.of("mongodb.");
  }

  /**
   * What the binding's settings readers ask for ({@link RecordingProperties#namesReadBy}): every name
   * {@link MongoSettings} and {@link BalancerPolicy} read (YCSB's {@code batchsize} and
   * {@code dotransactions} and the harness's {@code clientthreads} among them), and the {@code mongodb.*}
   * ones of {@link MongoLastLocationSettings} (it also reads the workload's {@code ll.*} names through
   * the contract's {@code LocationStream}: those are the workload's catalog's). Each reader asks for every name even
   * when it is unset (a value read only when given is asked for by {@code isSet} first), so the empty
   * properties are the one case needed; MongoPropertiesTest checks that against every name set. No name is
   * added by hand. (YCSB's {@code table} and {@code insertstart} reach the binding in the phase's
   * {@code DataDeclaration}, made by the harness.)
   */
  @Override
  public Set<String> names() {
    Set<String> names = new TreeSet<>(RecordingProperties.namesReadBy(MongoSettings::fromProperties));
    names.addAll(RecordingProperties.namesReadBy(BalancerPolicy::fromProperties));
    RecordingProperties.namesReadBy(MongoLastLocationSettings::fromProperties).stream()
        .filter(name -> name.startsWith("mongodb.")).forEach(names::add);
    return Set.copyOf(names);
  }

  @Override
  public List<String> problems(Properties properties) {
    List<String> problems = new java.util.ArrayList<>(PropertyCatalog.problemsOf(MongoSettings::fromProperties, properties));
    if (problems.isEmpty()) {
      try {
        String cellKey = CellKeyPlan.problem(MongoSettings.fromProperties(properties).preparation().shardKey());
        if (cellKey != null) {
          problems.add(cellKey);
        }
      } catch (ConfigException e) {
        // reported above
      }
    }
    problems.addAll(PropertyCatalog.problemsOf(BalancerPolicy::fromProperties, properties));
    // The workload's own ll.* problems are its catalog's to report; only mongodb.ll.* here.
    PropertyCatalog.problemsOf(MongoLastLocationSettings::fromProperties, properties).stream()
        .filter(problem -> problem.contains("mongodb.ll.")).forEach(problems::add);
    return problems;
  }
}
