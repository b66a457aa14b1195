package org.geoshard.postgis;

import java.util.List;

/** The tables of the binding, as idempotent DDL. */
final class Schema {
  /** YCSB's key-value operations use one table per YCSB table name, with the fields as JSON. */
  static final String KV_COLUMNS = "(ycsb_key text PRIMARY KEY, fields jsonb NOT NULL)";

  private Schema() {
  }

  static List<String> createRestaurants(String table) {
    return List.of("CREATE EXTENSION IF NOT EXISTS postgis",
        "CREATE TABLE IF NOT EXISTS " + table + " (\n"
            + "  id bigint PRIMARY KEY,\n"
            + RESTAURANT_COLUMNS + ")");
  }

  /** The restaurants' columns after the id (the cell-partitioned table adds its own key). */
  static final String RESTAURANT_COLUMNS = ""
      + "  name text NOT NULL,\n"
      + "  city text NOT NULL,\n"
      + "  cuisine text NOT NULL,\n"
      + "  opened integer NOT NULL,\n"
      + "  rating integer NOT NULL,\n"
      + "  reviews integer NOT NULL,\n"
      + "  pricing text NOT NULL,\n"
      + "  outside_area boolean NOT NULL,\n"
      + "  location geography(Point, 4326) NOT NULL";

  static String createLocationIndex(String table) {
    return "CREATE INDEX IF NOT EXISTS " + locationIndex(table) + " ON " + table + " USING GIST (location)";
  }

  static String locationIndex(String table) {
    return table + "_location_gist";
  }

  static String createKeyValue(String table) {
    return "CREATE TABLE IF NOT EXISTS " + table + " " + KV_COLUMNS;
  }

  static String drop(String table) {
    return "DROP TABLE IF EXISTS " + table;
  }
}
