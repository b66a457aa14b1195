package org.geoshard.lastlocation.contract;

import java.util.List;
import site.ycsb.Status;

/**
 * A binding whose last-location operations live in an object of their own (per client thread): it
 * names that object and the contract's calls go to it.
 */
public interface DelegatingLastLocation extends LastLocationContract {
  /** This thread's last-location operations (after {@code init}). */
  LastLocationContract lastLocation();

  @Override
  default Status appendHistory(LocationEvent event) {
    return lastLocation().appendHistory(event);
  }

  @Override
  default Status upsertLastLocation(LocationEvent event) {
    return lastLocation().upsertLastLocation(event);
  }

  @Override
  default Status readLastLocation(String userId, List<LocationEvent> out) {
    return lastLocation().readLastLocation(userId, out);
  }

  @Override
  default Status historyRange(String userId, long fromMs, long toMs, List<LocationEvent> out) {
    return lastLocation().historyRange(userId, fromMs, toMs, out);
  }

  @Override
  default Status usersNear(double longitude, double latitude, double radiusMeters, int limit, List<LocationEvent> out) {
    return lastLocation().usersNear(longitude, latitude, radiusMeters, limit, out);
  }
}
