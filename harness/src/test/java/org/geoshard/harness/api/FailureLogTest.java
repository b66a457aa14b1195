package org.geoshard.harness.api;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class FailureLogTest {

  private static ListAppender<ILoggingEvent> capture(String name) {
    Logger logger = (Logger) LoggerFactory.getLogger(name);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    return appender;
  }

  @Test
  void theFirstFailuresInFullThenOneCountPerPeriod() {
    ListAppender<ILoggingEvent> lines = capture("failure-log-test-1");
    AtomicLong now = new AtomicLong();
    FailureLog log = new FailureLog(LoggerFactory.getLogger("failure-log-test-1"), 3, Duration.ofSeconds(10), now::get);
    for (int i = 0; i < 1_000_000; i++) {
      log.failed("COPY of 1000 rows", "connection refused", null);
    }
    // 3 in full, then the fourth says that counting starts; a million failures in no time add nothing.
    assertThat(lines.list).hasSize(4);
    assertThat(lines.list.get(3).getFormattedMessage()).contains("further failures are counted, one line every 10 s");

    now.addAndGet(TimeUnit.SECONDS.toNanos(11));
    log.failed("Near query", "the database system is shutting down", null);
    assertThat(lines.list).hasSize(5);
    assertThat(lines.list.get(4).getFormattedMessage())
        .isEqualTo("999997 more failures in the last 11 s (1000001 in all); the latest: Near query failed:"
            + " the database system is shutting down");
    assertThat(log.count()).isEqualTo(1_000_001);
  }

  @Test
  void reasonsAreMasked() {
    ListAppender<ILoggingEvent> lines = capture("failure-log-test-2");
    FailureLog log = new FailureLog(LoggerFactory.getLogger("failure-log-test-2"));
    log.failed("connect", "no server at mongodb://bench:hunter2@db1:27017/ycsb", null);
    assertThat(lines.list.get(0).getFormattedMessage()).doesNotContain("hunter2").contains("bench:****@db1");
  }
}
