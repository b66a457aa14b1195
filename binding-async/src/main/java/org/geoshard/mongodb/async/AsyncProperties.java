package org.geoshard.mongodb.async;

import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.config.PropertyCatalog;

/**
 * The {@code mongodb.*} names binding-async adds to binding-sync's ({@code MongoProperties}), and the
 * check of their values: the per-shard routers {@code mongodb.targeted.mongos.<shardId>} (a name
 * pattern) or the one-property form {@code mongodb.targeted.mongos=<shardId>=<url>;...}.
 */
public final class AsyncProperties implements PropertyCatalog {
  @Override
  public Set<String> prefixes() {
    return Set.of("mongodb.");
  }

  @Override
  public Set<String> names() {
    return Set.of(AsyncSettings.ROUTING, AsyncSettings.TARGETED_REFRESH, AsyncSettings.TARGETED_MONGOS,
        AsyncSettings.TARGETED_MONGOS_PREFIX + "*");
  }

  /** Only the routing's problems: the shared mongodb.* values are binding-sync's catalog's to report. */
  @Override
  public List<String> problems(Properties properties) {
    try {
      AsyncSettings.fromProperties(properties, List.of());
      return List.of();
    } catch (ConfigException e) {
      return e.problems().stream().filter(AsyncProperties::mine).toList();
    }
  }

  private static boolean mine(String problem) {
    return problem.contains(AsyncSettings.ROUTING) || problem.contains(AsyncSettings.TARGETED_MONGOS)
        || problem.contains(AsyncSettings.TARGETED_REFRESH) || problem.startsWith("Shard '");
  }
}
