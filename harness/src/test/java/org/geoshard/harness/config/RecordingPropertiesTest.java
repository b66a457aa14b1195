package org.geoshard.harness.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;
import org.junit.jupiter.api.Test;

class RecordingPropertiesTest {
  @Test
  void recordsEveryNameAskedForWithOrWithoutADefault() {
    Properties given = new Properties();
    given.setProperty("a", "1");
    RecordingProperties p = new RecordingProperties(given);
    assertThat(p.namesRead()).isEmpty();
    assertThat(p.getProperty("a")).isEqualTo("1");
    assertThat(p.getProperty("b", "2")).isEqualTo("2");
    assertThat(p.namesRead()).containsExactly("a", "b");
  }

  @Test
  void aReaderThatRefusesStillReportsWhatItReadAndEachCaseAddsItsNames() {
    Properties withMode = new Properties();
    withMode.setProperty("mode", "x");
    var names = RecordingProperties.namesReadBy(p -> {
      PropertyReader r = new PropertyReader(p);
      if (r.isSet("mode")) {
        r.string("mode.x", "");
      }
      r.longAtLeast("count", 1, 0);
      throw new ConfigException(java.util.List.of("refused"));
    }, new Properties(), withMode);
    assertThat(names).containsExactly("count", "mode", "mode.x");
  }
}
