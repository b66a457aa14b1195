package org.geoshard.postgis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import site.ycsb.DBException;

/** A server that accepts connections and never answers (no PostgreSQL needed: the socket is the server). */
class ConnectionsTest {
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  private final Logger logger = (Logger) LoggerFactory.getLogger(Connections.class);
  private final List<Socket> held = new CopyOnWriteArrayList<>();
  private ServerSocket silent;
  private Thread acceptor;
  private ch.qos.logback.classic.Level level;

  @BeforeEach
  void start() throws Exception {
    logged.start();
    logger.addAppender(logged);
    level = logger.getLevel();
    logger.setLevel(ch.qos.logback.classic.Level.INFO);
    silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    acceptor = new Thread(() -> {
      try {
        while (true) {
          held.add(silent.accept());  // held open, never read or written
        }
      } catch (java.io.IOException closed) {
        // the test is over
      }
    });
    acceptor.setDaemon(true);
    acceptor.start();
  }

  @AfterEach
  void stop() throws Exception {
    logger.detachAppender(logged);
    logger.setLevel(level);
    silent.close();
    for (Socket s : held) {
      s.close();
    }
  }

  @Test
  void aSilentServerIsSaidAfterASecondThenEveryTenSecondsAndGivenUpAtTheNamedTime() throws Exception {
    Properties p = new Properties();
    p.setProperty("postgis.url", "jdbc:postgresql://127.0.0.1:" + silent.getLocalPort() + "/geoshard");
    p.setProperty("postgis.user", "bench");
    p.setProperty("postgis.password", "hunter2");
    p.setProperty("postgis.connectTimeout", "12");
    PostgisSettings settings = PostgisSettings.fromProperties(p);
    long start = System.nanoTime();
    assertThatThrownBy(() -> Connections.open(settings)).isInstanceOf(DBException.class)
        .hasMessageStartingWith("No PostgreSQL server reachable at jdbc:postgresql://127.0.0.1:" + silent.getLocalPort()
            + "/geoshard within 12 s (postgis.url, postgis.connectTimeout)");
    long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);

    // The time named, not twice it (the margin is for a busy machine).
    assertThat(seconds).isBetween(11L, 20L);
    List<String> lines = logged.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    String where = "jdbc:postgresql://127.0.0.1:" + silent.getLocalPort() + "/geoshard";
    assertThat(lines).containsExactly("Waiting for an answer from " + where + " (up to 12 s, postgis.connectTimeout).",
        "No answer from " + where + " yet: 10 s of 12 s, postgis.connectTimeout.");
    assertThat(String.join("\n", lines)).doesNotContain("hunter2");
  }
}
