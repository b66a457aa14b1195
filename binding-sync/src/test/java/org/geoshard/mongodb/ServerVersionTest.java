package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.bson.Document;
import org.junit.jupiter.api.Test;

class ServerVersionTest {
  @Test
  void parsesAndCompares() {
    assertThat(ServerVersion.parse("8.0.4")).isEqualTo(new ServerVersion(8, 0, 4));
    assertThat(ServerVersion.parse("7.0.12-rc0")).isEqualTo(new ServerVersion(7, 0, 12));
    assertThat(ServerVersion.parse("4.2")).isEqualTo(new ServerVersion(4, 2, 0));
    assertThat(ServerVersion.fromBuildInfo(new Document("versionArray", List.of(7, 2, 1, 0)).append("version", "x")))
        .isEqualTo(new ServerVersion(7, 2, 1));
    assertThat(ServerVersion.fromBuildInfo(new Document("version", "6.0.3"))).hasToString("6.0.3");
    assertThat(new ServerVersion(7, 2, 0).atLeast(7, 2)).isTrue();
    assertThat(new ServerVersion(7, 1, 9).atLeast(7, 2)).isFalse();
    assertThat(new ServerVersion(8, 0, 0).atLeast(7, 2)).isTrue();
    assertThat(new ServerVersion(5, 0, 0).atLeast(6, 0)).isFalse();
    assertThat(new ServerVersion(7, 0, 12)).isLessThan(new ServerVersion(7, 2, 0));
  }
}
