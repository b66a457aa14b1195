package org.geoshard.lastlocation.contract;

/**
 * One passive-location event: a subscriber seen by a cell tower at a moment.
 *
 * @param userId the subscriber, a 15-digit IMEI-like id
 * @param timestampMs milliseconds since the epoch (a simulated clock)
 */
public record LocationEvent(String userId, int cellId, long timestampMs, double latitude, double longitude) {
}
