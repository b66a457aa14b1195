package org.geoshard.mongodb;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import java.util.Properties;
import org.geoshard.harness.api.StandaloneRun;
import org.slf4j.LoggerFactory;

/**
 * What the tests check was let go: the clients of the JVM's context (binding instances a test makes
 * itself, which join no phase), and the clients a phase's end had to close because an instance of the
 * phase (made by the harness) never let go of them.
 */
final class LeftOpen implements AutoCloseable {
  private final Logger logger = (Logger) LoggerFactory.getLogger(SharedClients.class);
  private final Level level = logger.getLevel();
  private final ListAppender<ILoggingEvent> lines = new ListAppender<>();

  private LeftOpen() {
    lines.start();
    logger.addAppender(lines);
    logger.setLevel(Level.DEBUG);
  }

  /** The shared clients of binding instances that joined no phase. */
  static SharedClients standaloneClients() {
    return SharedClients.in(StandaloneRun.context(new Properties()));
  }

  /** Watches the phases' ends from now on, until {@link #close()}. */
  static LeftOpen watch() {
    return new LeftOpen();
  }

  /** The clients a phase's end closed since {@link #watch()}: none when every instance let go of its client. */
  List<String> closedAtPhaseEnd() {
    return lines.list.stream().map(ILoggingEvent::getFormattedMessage)
        .filter(line -> line.contains("at the end of the phase")).toList();
  }

  @Override
  public void close() {
    logger.detachAppender(lines);
    logger.setLevel(level);
  }
}
