package org.geoshard.postgis;

import static org.assertj.core.api.Assertions.assertThat;

import org.geoshard.geo.contract.Restaurant;
import org.junit.jupiter.api.Test;

class CopyRowsTest {
  @Test
  void writesOneEscapedTabSeparatedRow() {
    StringBuilder out = new StringBuilder();
    CopyRows.append(new Restaurant(3, "Vegan Cafe 7", "Back\\slash\tTown\nX", "Vegan", 2001, 5, 12, "$", false,
        -0.5, 51.25), out);
    assertThat(out).hasToString("3\tVegan Cafe 7\tBack\\\\slash\\tTown\\nX\tVegan\t2001\t5\t12\t$\tf\t"
        + "SRID=4326;POINT(-0.5 51.25)\n");
  }
}
