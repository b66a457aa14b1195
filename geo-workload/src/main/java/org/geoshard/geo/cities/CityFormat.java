package org.geoshard.geo.cities;

/** The city file formats {@code geo.cities} accepts, told apart by their first line. */
public enum CityFormat {
  /** The bundled file: a header {@code geonameid\tname\tcountry\tlatitude\tlongitude\tpopulation}. */
  BUNDLED,
  /** GeoNames' own dump ({@code cities1000.txt}): 19 tab-separated columns, no header. */
  GEONAMES,
  /** The opendatasoft export the study used: {@code ;}-separated with a header and "lat, lon" Coordinates. */
  OPENDATASOFT;

  public static final String BUNDLED_HEADER = "geonameid\tname\tcountry\tlatitude\tlongitude\tpopulation";

  /** Recognises the format from the first line of a file. */
  public static CityFormat detect(String firstLine) {
    String line = firstLine.startsWith("\uFEFF") ? firstLine.substring(1) : firstLine;
    if (line.equals(BUNDLED_HEADER)) {
      return BUNDLED;
    }
    if (line.contains(";") && line.toLowerCase(java.util.Locale.ROOT).contains("coordinates")) {
      return OPENDATASOFT;
    }
    if (line.split("\t", -1).length >= 15) {
      return GEONAMES;
    }
    return null;
  }
}
