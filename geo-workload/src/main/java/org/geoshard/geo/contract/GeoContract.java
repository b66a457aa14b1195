package org.geoshard.geo.contract;

import java.util.List;
import org.geoshard.harness.api.DataRole;
import site.ycsb.Status;

/**
 * What a binding implements to serve the geo workload. Each binding instance is used by one client
 * thread (YCSB's contract), so implementations may keep per-thread buffers.
 */
public interface GeoContract {
  /** The restaurants the geo workload loads and queries (a binding's geo collection or table). */
  DataRole RESTAURANTS = new DataRole("geo restaurants");

  /**
   * Stores one restaurant. A binding may buffer up to its batch size and return
   * {@link Status#BATCHED_OK}; it must write what it holds in {@code cleanup()}, so that no
   * restaurant of a load is lost.
   */
  Status insertRestaurant(Restaurant restaurant);

  /**
   * Runs a near query and reads every result into {@code hits} (cleared first), nearest first, ties
   * by id. Returns OK when the query ran, whatever the number of results.
   */
  Status near(GeoQuery query, List<GeoHit> hits);
}
