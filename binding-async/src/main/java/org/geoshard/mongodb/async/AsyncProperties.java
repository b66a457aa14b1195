package org.geoshard.mongodb.async;

import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.config.PropertyCatalog;
import org.geoshard.harness.config.RecordingProperties;
import org.geoshard.mongodb.MongoProperties;

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

  /**
   * What {@link AsyncSettings} reads ({@link RecordingProperties#namesReadBy}) beyond binding-sync's names
   * (it reads those too, through {@code MongoSettings}); every name is asked for even when unset, so the
   * empty properties are the one case (AsyncPropertiesTest checks that against every name set).
   */
  @Override
  public Set<String> names() {
    Set<String> names = new TreeSet<>(RecordingProperties.namesReadBy(p -> AsyncSettings.fromProperties(p, List.of())));
    names.removeAll(new MongoProperties().names());
    // The one name given by hand: the per-shard routers, whose names the user makes (one per shard id);
    // the reader asks only for those that are set.
    names.add(AsyncSettings.TARGETED_MONGOS_PREFIX + "*");
    return Set.copyOf(names);
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
