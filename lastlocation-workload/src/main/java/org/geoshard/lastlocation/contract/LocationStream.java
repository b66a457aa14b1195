package org.geoshard.lastlocation.contract;

import java.util.Properties;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.lastlocation.LastLocationSettings;

/**
 * What a binding needs to know of the location stream to store and prepare it, read from the run's
 * {@code ll.*} properties by the contract (so a binding never reads the workload's settings): how many
 * History events a batch carries, how History is split, whether last positions are searched by place
 * (a 2dsphere/GiST index), whether the Last-Known-Location collection is kept, and the stream's clock
 * start (the oldest timestamp an event can carry).
 */
public record LocationStream(int historyBatchSize, HistorySplit historySplit, boolean nearQueries,
                             boolean keepsLastKnownLocation, long clockStartMs) {
  /**
   * The stream the properties describe.
   *
   * @throws ConfigException naming every {@code ll.*} property at fault
   */
  public static LocationStream fromProperties(Properties properties) throws ConfigException {
    LastLocationSettings settings = LastLocationSettings.fromProperties(properties);
    return new LocationStream(settings.historyBatchSize(), settings.historySplit(), settings.nearQueries(),
        settings.keepsLastKnownLocation(), settings.clockStartMs());
  }
}
