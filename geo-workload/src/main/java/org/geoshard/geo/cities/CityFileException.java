package org.geoshard.geo.cities;

/** A cities file cannot be read; the message names the file and, where it applies, the line. */
public final class CityFileException extends Exception {
  public CityFileException(String message) {
    super(message);
  }

  public CityFileException(String message, Throwable cause) {
    super(message, cause);
  }
}
