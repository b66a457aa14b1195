package org.geoshard.geo;

import java.util.List;
import org.geoshard.geo.cities.City;

/** A handful of real cities (GeoNames figures) for small, hand-checkable datasets. */
public final class TestCities {
  public static final List<City> FIVE = List.of(
      new City(1796236, "Shanghai", "CN", 31.22222, 121.45806, 22_315_474),
      new City(3094802, "Kraków", "PL", 50.06143, 19.93658, 755_050),
      new City(2988507, "Paris", "FR", 48.85341, 2.3488, 2_138_551),
      new City(4030656, "Adamstown", "PN", -25.06597, -130.10147, 0),
      new City(2122104, "Anadyr", "RU", 64.73424, 177.5103, 13_045));

  private TestCities() {
  }
}
