package org.geoshard.mongodb;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A small cities file in the bundled TSV format: five real cities (GeoNames figures). */
final class TestCities {
  static final String TSV = """
      geonameid\tname\tcountry\tlatitude\tlongitude\tpopulation
      1796236\tShanghai\tCN\t31.22222\t121.45806\t22315474
      3094802\tKraków\tPL\t50.06143\t19.93658\t755050
      2988507\tParis\tFR\t48.85341\t2.3488\t2138551
      4030656\tAdamstown\tPN\t-25.06597\t-130.10147\t0
      2122104\tAnadyr\tRU\t64.73424\t177.5103\t13045
      """;

  private TestCities() {
  }

  static Path write(Path dir) throws IOException {
    return Files.writeString(dir.resolve("cities.tsv"), TSV);
  }
}
