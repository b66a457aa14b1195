package org.geoshard.harness.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** A thread that is not the harness's dies of an exception: one line, not the JVM's raw stack trace. */
class UncaughtExceptionsTest {
  @Test
  void aThreadDyingOfAnExceptionIsSaidInOneLine() throws Exception {
    Logger logger = (Logger) LoggerFactory.getLogger("test.uncaught");
    ListAppender<ILoggingEvent> lines = new ListAppender<>();
    lines.start();
    logger.addAppender(lines);
    logger.setLevel(Level.DEBUG);
    try {
      ByteBuffer[] released = new ByteBuffer[1];  // as the driver's buffer after its connection closed
      Thread thread = new Thread(() -> released[0].hasRemaining(), "Thread-7");
      thread.setUncaughtExceptionHandler(new UncaughtExceptions(logger));
      thread.start();
      thread.join();
    } finally {
      logger.detachAppender(lines);
      logger.setLevel(null);
    }
    List<ILoggingEvent> warnings = lines.list.stream().filter(e -> e.getLevel() == Level.WARN).toList();
    assertThat(warnings).hasSize(1);
    assertThat(warnings.get(0).getFormattedMessage())
        .startsWith("Thread 'Thread-7' (not a client thread) ended on java.lang.NullPointerException")
        .contains(" at org.geoshard.harness.cli.UncaughtExceptionsTest").doesNotContain("\n");
    assertThat(warnings.get(0).getThrowableProxy()).as("no stack trace in the line").isNull();
    assertThat(lines.list.stream().filter(e -> e.getLevel() == Level.DEBUG && e.getThrowableProxy() != null)).hasSize(1);
  }
}
