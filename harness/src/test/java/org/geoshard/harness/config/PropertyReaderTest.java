package org.geoshard.harness.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class PropertyReaderTest {
  enum Paging { SKIP, MIN_DISTANCE }

  private static PropertyReader reader(String... pairs) {
    Properties p = new Properties();
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return new PropertyReader(p);
  }

  @Test
  void readsTypedValuesAndDefaults() throws ConfigException {
    PropertyReader in = reader("a", " 12 ", "b", "1_000", "c", "0.25", "d", "TRUE", "e", "min-distance", "f", "30");
    assertThat(in.intInRange("a", 0, 0, 100)).isEqualTo(12);
    assertThat(in.longAtLeast("b", 0, 0)).isEqualTo(1000);
    assertThat(in.doubleInRange("c", 0, 0, 1)).isEqualTo(0.25);
    assertThat(in.bool("d", false)).isTrue();
    assertThat(in.choice("e", Paging.SKIP, Paging.class)).isEqualTo(Paging.MIN_DISTANCE);
    assertThat(in.seconds("f", Duration.ZERO, 0)).isEqualTo(Duration.ofSeconds(30));
    assertThat(in.string("missing", "x")).isEqualTo("x");
    in.throwIfProblems();
  }

  @Test
  void collectsEveryProblemNamingPropertyAndValue() {
    PropertyReader in = reader("threadcount", "four", "operationcount", "-5", "ratio", "1.5", "flag", "yes",
        "paging", "sideways");
    in.intInRange("threadcount", 1, 1, 100);
    in.longAtLeast("operationcount", 0, 0);
    in.doubleInRange("ratio", 0, 0, 1);
    in.bool("flag", false);
    in.choice("paging", Paging.SKIP, Paging.class);

    assertThatThrownBy(in::throwIfProblems)
        .isInstanceOf(ConfigException.class)
        .satisfies(e -> assertThat(((ConfigException) e).problems()).containsExactly(
            "Property 'threadcount' must be a whole number from 1 to 100, but is 'four'.",
            "Property 'operationcount' must be a whole number of at least 0, but is '-5'.",
            "Property 'ratio' must be a number from 0 to 1, but is '1.5'.",
            "Property 'flag' must be true or false, but is 'yes'.",
            "Property 'paging' must be one of skip, mindistance, but is 'sideways'."));
  }

  @Test
  void rejectsNotANumberForRanges() {
    PropertyReader in = reader("x", "NaN");
    assertThat(in.doubleInRange("x", 0.5, 0, 1)).isEqualTo(0.5);
    assertThat(in.problems()).hasSize(1);
  }
}
