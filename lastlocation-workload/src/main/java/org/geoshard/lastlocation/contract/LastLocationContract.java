package org.geoshard.lastlocation.contract;

import java.util.List;
import org.geoshard.harness.api.DataRole;
import site.ycsb.Status;

/**
 * What a binding implements to serve the last-location workload. Each binding instance is used by
 * one client thread (YCSB's contract).
 */
public interface LastLocationContract {
  /** Every location event, appended (History, split by time where the binding is asked to). */
  DataRole HISTORY = new DataRole("last-location history");
  /** One document or row per user: the last known location (LastKnownLocation). */
  DataRole LAST_KNOWN = new DataRole("last-location last known");
  /** What {@link #upsertLastLocation} returns when the stored location is as new or newer. */
  Status STALE = new Status("STALE", "The event is not newer than the last known location; nothing changed.");

  /**
   * Appends an event to History. A binding may buffer up to {@code ll.history.batchsize} events and
   * return {@link Status#BATCHED_OK}; it must write what it holds in {@code cleanup()}.
   */
  Status appendHistory(LocationEvent event);

  /**
   * Stores the event as the user's last known location only if it is newer than the stored one
   * (or none is stored): OK when it did, {@link #STALE} when the stored one is as new or newer.
   */
  Status upsertLastLocation(LocationEvent event);

  /** The user's last known location into {@code out} (cleared first; empty when unknown). */
  Status readLastLocation(String userId, List<LocationEvent> out);

  /** The user's events with {@code fromMs <= timestamp <= toMs}, oldest first, into {@code out}. */
  Status historyRange(String userId, long fromMs, long toMs, List<LocationEvent> out);

  /**
   * Up to {@code limit} users last seen within {@code radiusMeters} (spherical) of a point, nearest
   * first, into {@code out}; {@link Status#NOT_IMPLEMENTED} where the binding has no such index.
   */
  Status usersNear(double longitude, double latitude, double radiusMeters, int limit, List<LocationEvent> out);
}
