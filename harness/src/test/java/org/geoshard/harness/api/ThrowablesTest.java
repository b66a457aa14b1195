package org.geoshard.harness.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class ThrowablesTest {
  @Test
  void aMessageIsSaidAsItIs() {
    assertThat(Throwables.describe(new IOException("connection refused"))).isEqualTo("connection refused");
  }

  @Test
  void withoutAMessageTheClassIsNamed() {
    assertThat(Throwables.describe(new NullPointerException())).isEqualTo("NullPointerException");
    assertThat(Throwables.describe(new IllegalStateException("  "))).isEqualTo("IllegalStateException");
  }
}
