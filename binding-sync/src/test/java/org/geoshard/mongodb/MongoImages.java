package org.geoshard.mongodb;

import java.util.List;

/**
 * The MongoDB images the Docker suites run on: the one named by {@code -Dgeoshard.mongo.image=mongo:7.0}
 * (the CI matrix runs 4.4, 5.0, 6.0, 7.0 and 8.0, one per job), else the given defaults.
 */
public final class MongoImages {
  public static final String PROPERTY = "geoshard.mongo.image";

  private MongoImages() {
  }

  /** The chosen image, or the defaults. */
  public static List<String> images(String... defaults) {
    String chosen = System.getProperty(PROPERTY);
    return chosen == null || chosen.isBlank() ? List.of(defaults) : List.of(chosen.trim());
  }

  /** The chosen image, or the default. */
  public static String image(String defaultImage) {
    return images(defaultImage).get(0);
  }

  /** The version of an image as a server version ({@code mongo:7.0} is 7.0.0). */
  public static ServerVersion version(String image) {
    return ServerVersion.parse(image.substring(image.indexOf(':') + 1).replaceAll("[^0-9.].*", ""));
  }
}
