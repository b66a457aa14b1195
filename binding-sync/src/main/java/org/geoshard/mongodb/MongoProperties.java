package org.geoshard.mongodb;

import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.config.PropertyCatalog;

/** The property names the MongoDB binding reads, and its prefix: an unknown {@code mongodb.*} name is refused. */
public final class MongoProperties implements PropertyCatalog {
  @Override
  public Set<String> prefixes() {
    return Set.of("mongodb.");
  }

  @Override
  public Set<String> names() {
    return Set.of(MongoSettings.URL, MongoSettings.COLLECTION, MongoSettings.WRITE_CONCERN, MongoSettings.READ_PREFERENCE,
        MongoSettings.SERVER_SELECTION_TIMEOUT, MongoSettings.CONNECT_WAIT, MongoSettings.TIMEOUT_MS, MongoSettings.INDEX_TIMEOUT_MS,
        MongoSettings.MAX_CONNECTIONS, MongoSettings.UPSERT,
        MongoSettings.BATCH_SIZE, MongoSettings.DROP, MongoSettings.SHARD_KEY, MongoSettings.NUM_INITIAL_CHUNKS,
        MongoSettings.INDEX_WHEN, MongoSettings.INDEX_POLL_MS, MongoSettings.MAX_DISTANCE, MongoSettings.DO_TRANSACTIONS,
        MongoLastLocationSettings.HISTORY, MongoLastLocationSettings.LKL, MongoLastLocationSettings.HISTORY_SHARD_KEY,
        MongoLastLocationSettings.LKL_SHARD_KEY, MongoLastLocationSettings.LKL_URL, BalancerPolicy.PROPERTY);
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
