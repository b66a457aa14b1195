package org.geoshard.lastlocation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The location stream checks its own counts: a load range of users must hold a user. */
class LastLocationCountsTest {
  private static Properties props(String... pairs) {
    Properties p = new Properties();
    p.setProperty("ll.users", "100");
    p.setProperty("ll.cells", "10");
    p.setProperty("ll.writers", "1");
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return p;
  }

  @Test
  void anInsertStartAtOrPastTheLastUserIsRefusedWithItsNumbers() {
    for (String start : new String[] {"100", "5000000"}) {
      assertThatThrownBy(() -> new LastLocationWorkload().init(props("insertstart", start)))
          .hasMessageContaining("Property insertstart (" + start + ") is not below ll.users (100)");
    }
  }

  @Test
  void aRangeInsideTheUsersIsItsInsertCount() throws Exception {
    LastLocationWorkload workload = new LastLocationWorkload();
    workload.init(props("insertstart", "60"));
    assertThat(workload.insertCount()).isEqualTo(40);
    assertThatThrownBy(() -> new LastLocationWorkload().init(props("insertstart", "60", "insertcount", "50")))
        .hasMessageContaining("exceed ll.users (100)");
  }
}
