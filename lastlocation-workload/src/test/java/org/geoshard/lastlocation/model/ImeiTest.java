package org.geoshard.lastlocation.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ImeiTest {
  @Test
  void idsAre15DigitsWithALuhnCheckDigit() {
    // "35" + twelve zeros: Luhn sums 3 + (5 doubled = 10 -> 1) = 4, so the check digit is 6.
    assertThat(Imei.of(0)).isEqualTo("350000000000006");
    // A real IMEI from the GSMA's documentation: 49015420323751 has check digit 8.
    assertThat(Imei.luhn("49015420323751")).isEqualTo(8);
    Set<String> ids = new HashSet<>();
    for (long u = 0; u < 10_000; u++) {
      String id = Imei.of(u * 7919);
      assertThat(Imei.valid(id)).as(id).isTrue();
      ids.add(id);
    }
    assertThat(ids).hasSize(10_000);
    assertThat(Imei.valid("350000000000001")).isFalse();
    assertThatThrownBy(() -> Imei.of(-1)).isInstanceOf(IllegalArgumentException.class);
  }
}
