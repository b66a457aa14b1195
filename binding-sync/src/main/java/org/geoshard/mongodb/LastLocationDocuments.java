package org.geoshard.mongodb;

import java.util.List;
import org.bson.Document;
import org.geoshard.lastlocation.contract.LocationEvent;

/**
 * Location events as MongoDB documents. History: {@code {UserId, CellId, Timestamp, Latitude,
 * Longitude}}, sharded (when it is) on {@code {UserId: 1, Timestamp: 1}}. LastKnownLocation: one
 * document per user, {@code {_id: UserId, CellId, T, location: GeoJSON Point}}, replaced only by a
 * newer event: the upsert's filter {@code {_id, T: {$lt: ts}}} matches nothing when the stored
 * location is as new or newer, and the insert it then tries fails with a duplicate key, which means
 * "stale".
 */
public final class LastLocationDocuments {
  public static final String USER = "UserId";
  public static final String CELL = "CellId";
  public static final String TIMESTAMP = "Timestamp";
  public static final String LATITUDE = "Latitude";
  public static final String LONGITUDE = "Longitude";
  public static final String LKL_TIMESTAMP = "T";
  public static final String LOCATION = "location";

  private LastLocationDocuments() {
  }

  public static Document history(LocationEvent e) {
    return new Document(USER, e.userId()).append(CELL, e.cellId()).append(TIMESTAMP, e.timestampMs())
        .append(LATITUDE, e.latitude()).append(LONGITUDE, e.longitude());
  }

  public static LocationEvent fromHistory(Document d) {
    return new LocationEvent(d.getString(USER), d.getInteger(CELL), d.getLong(TIMESTAMP), d.getDouble(LATITUDE),
        d.getDouble(LONGITUDE));
  }

  /** The filter of the conditional upsert: this user, stored location older than the event. */
  public static Document olderThan(LocationEvent e) {
    return new Document("_id", e.userId()).append(LKL_TIMESTAMP, new Document("$lt", e.timestampMs()));
  }

  /** The update of the conditional upsert. */
  public static Document replaceWith(LocationEvent e) {
    return new Document("$set", new Document(CELL, e.cellId()).append(LKL_TIMESTAMP, e.timestampMs())
        .append(LOCATION, point(e.longitude(), e.latitude())));
  }

  public static LocationEvent fromLastKnown(Document d) {
    Document location = d.get(LOCATION, Document.class);
    List<?> coordinates = location.getList("coordinates", Object.class);
    return new LocationEvent(d.getString("_id"), d.getInteger(CELL), d.getLong(LKL_TIMESTAMP),
        ((Number) coordinates.get(1)).doubleValue(), ((Number) coordinates.get(0)).doubleValue());
  }

  /** The filter of a range query on one user. */
  public static Document range(String userId, long fromMs, long toMs) {
    return new Document(USER, userId).append(TIMESTAMP, new Document("$gte", fromMs).append("$lte", toMs));
  }

  /** Users last seen within {@code serverMeters} (on MongoDB's sphere) of a point. */
  public static Document near(double longitude, double latitude, double serverMeters) {
    return new Document(LOCATION, new Document("$nearSphere",
        new Document("$geometry", point(longitude, latitude)).append("$maxDistance", serverMeters)));
  }

  static Document point(double longitude, double latitude) {
    return new Document("type", "Point").append("coordinates", List.of(longitude, latitude));
  }
}
