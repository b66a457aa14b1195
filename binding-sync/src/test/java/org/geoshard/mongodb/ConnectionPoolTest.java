package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.mongodb.ConnectionString;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The pool is sized to the client threads unless the user sizes it: the study ran one connection per
 * client, and a pool smaller than the threads makes the measured maximum the pool's (issue 18).
 */
class ConnectionPoolTest {
  private static MongoSettings settings(String... pairs) throws Exception {
    Properties p = new Properties();
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return MongoSettings.fromProperties(p);
  }

  private static int driverMaxSize(MongoSettings s) {
    return ClientOptions.builder(new ConnectionString(s.connection().url()), s.connection()).build().getConnectionPoolSettings().getMaxSize();
  }

  @Test
  void thePoolHasOneConnectionPerClientThreadByDefault() throws Exception {
    MongoSettings s = settings("clientthreads", "500");
    assertThat(s.connection().poolSize()).isEqualTo(500);
    assertThat(s.connection().poolSource()).isEqualTo("clientthreads");
    assertThat(driverMaxSize(s)).as("what the driver is told").isEqualTo(500);
  }

  @Test
  void whatTheUserSaysWinsThenTheDriversDefault() throws Exception {
    MongoSettings property = settings("clientthreads", "500", "mongodb.maxconnections", "50");
    assertThat(property.connection().poolSize()).isEqualTo(50);
    assertThat(property.connection().poolSource()).isEqualTo("mongodb.maxconnections");
    assertThat(driverMaxSize(property)).isEqualTo(50);

    MongoSettings url = settings("clientthreads", "500", "mongodb.url", "mongodb://localhost:27017/ycsb?maxPoolSize=20");
    assertThat(url.connection().poolSize()).isEqualTo(20);
    assertThat(url.connection().poolSource()).isEqualTo("maxPoolSize in mongodb.url");
    assertThat(driverMaxSize(url)).isEqualTo(20);

    MongoSettings unknown = settings();
    assertThat(unknown.connection().poolSize()).isEqualTo(100);
    assertThat(unknown.connection().poolSource()).isEqualTo("driver default");
    assertThat(driverMaxSize(unknown)).isEqualTo(100);

    MongoSettings small = settings("clientthreads", "4", "mongodb.url", "mongodb://localhost:27017/ycsb?minPoolSize=10");
    assertThat(driverMaxSize(small)).as("a larger minPoolSize is lowered, not refused by the driver").isEqualTo(4);
  }

  @Test
  void thePoolIsInTheTopologyAndThreadsBeyondItAreWarnedAbout() throws Exception {
    Logger logger = (Logger) LoggerFactory.getLogger(SharedClients.class);
    ListAppender<ILoggingEvent> lines = new ListAppender<>();
    lines.start();
    logger.addAppender(lines);
    try (InProcessMongo mongo = new InProcessMongo()) {
      MongoGeoBinding binding = new MongoGeoBinding();
      binding.setProperties(mongo.properties("clientthreads", "40", "mongodb.maxconnections", "8"));
      binding.init();
      try {
        @SuppressWarnings("unchecked")
        Map<String, Object> pool = (Map<String, Object>) binding.topology().get("connectionPool");
        assertThat(pool).containsEntry("maxSize", 8).containsEntry("source", "mongodb.maxconnections")
            .containsEntry("clientThreads", 40).containsEntry("threadsBeyondPool", true);
      } finally {
        binding.cleanup();
      }
      assertThat(lines.list).extracting(ILoggingEvent::getFormattedMessage)
          .anySatisfy(line -> assertThat(line).contains("40 client threads share a pool of 8 connections")
              .contains("mongodb.maxconnections"));

      lines.list.clear();
      MongoGeoBinding sized = new MongoGeoBinding();
      sized.setProperties(mongo.properties("clientthreads", "40"));
      sized.init();
      try {
        @SuppressWarnings("unchecked")
        Map<String, Object> pool = (Map<String, Object>) sized.topology().get("connectionPool");
        assertThat(pool).containsEntry("maxSize", 40).containsEntry("threadsBeyondPool", false);
      } finally {
        sized.cleanup();
      }
      assertThat(lines.list).extracting(ILoggingEvent::getFormattedMessage)
          .noneSatisfy(line -> assertThat(line).contains("share a pool"));
    } finally {
      logger.detachAppender(lines);
    }
  }
}
