package org.geoshard.harness.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class WaitingNoticeTest {
  @Test
  void aLongWaitIsSaidAtEachPeriodWithWhereHowLongAndTheProperty() throws Exception {
    List<String> lines = new CopyOnWriteArrayList<>();
    try (WaitingNotice notice = WaitingNotice.start("db1:5432", Duration.ofSeconds(60), "postgis.connectTimeout",
        lines::add, Duration.ofMillis(50), Duration.ofMillis(300))) {
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (lines.size() < 3 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
    }
    assertThat(lines).hasSizeGreaterThanOrEqualTo(3);
    assertThat(lines.get(0)).isEqualTo("Waiting for an answer from db1:5432 (up to 60 s, postgis.connectTimeout).");
    assertThat(lines.subList(1, lines.size()))
        .allMatch(l -> l.matches("No answer from db1:5432 yet: \\d+ s of 60 s, postgis\\.connectTimeout\\."));
  }

  @Test
  void aCallThatReturnsSoonerSaysNothingAndNothingAfterTheClose() throws Exception {
    List<String> lines = new CopyOnWriteArrayList<>();
    WaitingNotice notice = WaitingNotice.start("db1:5432", Duration.ofSeconds(5), "postgis.connectTimeout", lines::add,
        Duration.ofMillis(300), Duration.ofMillis(300));
    notice.close();
    Thread.sleep(700);
    assertThat(lines).isEmpty();
  }
}
