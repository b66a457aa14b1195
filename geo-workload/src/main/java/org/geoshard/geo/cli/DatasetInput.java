package org.geoshard.geo.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.geoshard.geo.GeoSettings;
import org.geoshard.geo.GeoWorkload;
import org.geoshard.geo.cities.CityFileException;
import org.geoshard.geo.dataset.RestaurantDataset;
import org.geoshard.harness.cli.PropertySources;
import org.geoshard.harness.config.ConfigException;
import org.slf4j.Logger;

/**
 * What a command on the geo dataset reads before it does anything: the properties of its {@code -P} files
 * and {@code -p} overrides (checked like load and run check theirs), the geo settings, and the dataset they
 * describe. Shared by {@code geo-dataset}, {@code geo-cells} and {@code bench postgis}.
 */
public record DatasetInput(Properties properties, GeoSettings settings, RestaurantDataset dataset) {

  /** What a command reads of the same properties besides the geo settings; it may refuse them. */
  @FunctionalInterface
  public interface Extra<T> {
    T read(Properties properties) throws ConfigException;
  }

  /**
   * Reads the input, or logs what is wrong (one sentence a problem) and returns null: the command then
   * exits 2 before anything starts.
   *
   * @param adjust settings the command puts into the properties before they are read (defaults, forced values)
   */
  public static DatasetInput readOrLog(List<Path> files, List<String> overrides, Extra<Void> adjust, Logger log) {
    try {
      Properties properties = PropertySources.resolveChecked(files, overrides);
      adjust.read(properties);
      GeoSettings settings = GeoSettings.fromProperties(properties);
      return new DatasetInput(properties, settings, GeoWorkload.datasetOf(settings));
    } catch (ConfigException e) {
      e.problems().forEach(log::error);
    } catch (CityFileException e) {
      log.error(e.getMessage());
    }
    return null;
  }

  /** Reads the input with nothing adjusted; see {@link #readOrLog(List, List, Extra, Logger)}. */
  public static DatasetInput readOrLog(List<Path> files, List<String> overrides, Logger log) {
    return readOrLog(files, overrides, p -> null, log);
  }

  /** Reads what the command needs besides the geo settings, or logs what is wrong and returns null (exit 2). */
  public <T> T extraOrLog(Extra<T> extra, Logger log) {
    try {
      return extra.read(properties);
    } catch (ConfigException e) {
      e.problems().forEach(log::error);
      return null;
    }
  }
}
