package org.geoshard.geo;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.geoshard.geo.contract.GeoContract;
import org.geoshard.geo.contract.GeoHit;
import org.geoshard.geo.contract.GeoQuery;
import org.geoshard.geo.contract.Restaurant;
import org.geoshard.harness.binding.NoopDB;
import site.ycsb.Status;

/**
 * A test double for the workload's side of the contract, not a database: it records the restaurants
 * it is given (buffered in batches of 5, flushed in cleanup, as a batching binding must) and answers
 * every near query with a full page of placeholders.
 */
public final class RecordingGeoDB extends NoopDB implements GeoContract {
  /** Restaurants stored, per value of the {@code test.sink} property. */
  public static final Map<String, ConcurrentLinkedQueue<Restaurant>> SINKS = new ConcurrentHashMap<>();
  /** Queries seen, per value of the {@code test.sink} property. */
  public static final Map<String, ConcurrentLinkedQueue<GeoQuery>> QUERIES = new ConcurrentHashMap<>();

  private final List<Restaurant> buffer = new ArrayList<>();

  private String sink() {
    return getProperties().getProperty("test.sink", "default");
  }

  @Override
  public Status insertRestaurant(Restaurant restaurant) {
    buffer.add(restaurant);
    if (buffer.size() < 5) {
      return Status.BATCHED_OK;
    }
    flush();
    return Status.OK;
  }

  @Override
  public Status near(GeoQuery query, List<GeoHit> hits) {
    QUERIES.computeIfAbsent(sink(), k -> new ConcurrentLinkedQueue<>()).add(query);
    hits.clear();
    for (int i = 0; i < query.limit(); i++) {
      hits.add(new GeoHit(new Restaurant(i, "x", "y", "Vegan", 2000, 1, 1, "$", true, 0, 0), 10.0 * i));
    }
    return Status.OK;
  }

  @Override
  public void cleanup() {
    flush();
  }

  private void flush() {
    SINKS.computeIfAbsent(sink(), k -> new ConcurrentLinkedQueue<>()).addAll(buffer);
    buffer.clear();
  }
}
