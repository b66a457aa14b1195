package org.geoshard.postgis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Properties;
import org.geoshard.harness.config.ConfigException;
import org.junit.jupiter.api.Test;

class PostgisSettingsTest {
  @Test
  void defaults() throws ConfigException {
    PostgisSettings s = PostgisSettings.fromProperties(new Properties());
    assertThat(s.url()).isEqualTo("jdbc:postgresql://127.0.0.1:5432/geoshard");
    assertThat(s.table()).isEqualTo("restaurants");
    assertThat(s.batchSize()).isEqualTo(1000);
    assertThat(s.indexAfterLoad()).isTrue();
    assertThat(s.drop()).isFalse();
    assertThat(s.connectTimeout()).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void reportsEveryBadValueAndMasksTheUrl() {
    Properties p = new Properties();
    p.setProperty("postgis.url", "mysql://u:hunter2@h/db");
    p.setProperty("postgis.table", "drop table x;");
    p.setProperty("postgis.index.when", "never");
    p.setProperty("batchsize", "0");
    assertThatThrownBy(() -> PostgisSettings.fromProperties(p))
        .isInstanceOf(ConfigException.class)
        .satisfies(e -> assertThat(((ConfigException) e).problems()).containsExactly(
            "Property 'postgis.url' must be a PostgreSQL JDBC URL (jdbc:postgresql://host:port/database), but is 'mysql://u:****@h/db'.",
            "Property 'postgis.table' must be a plain SQL name (letters, digits, _), but is 'drop table x;'.",
            "Property 'batchsize' must be a whole number from 1 to 1000000, but is '0'.",
            "Property 'postgis.index.when' must be one of before, after, but is 'never'."))
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("hunter2"));
  }

  @Test
  void explainsConnectionFailuresByState() throws ConfigException {
    Properties p = new Properties();
    p.setProperty("postgis.url", "jdbc:postgresql://db.example:5432/bench?password=secret");
    p.setProperty("postgis.user", "bench");
    PostgisSettings s = PostgisSettings.fromProperties(p);
    assertThat(Connections.explain(s, new SQLException("refused", "08001")))
        .startsWith("No PostgreSQL server reachable at jdbc:postgresql://db.example:5432/bench?password=**** within 5 s");
    assertThat(Connections.explain(s, new SQLException("bad password", "28P01")))
        .startsWith("Authentication failed for user 'bench' at");
    assertThat(Connections.explain(s, new SQLException("no db", "3D000"))).startsWith("The database in");
  }

  @Test
  void anAuthenticationFailureNamesTheUserInTheUrl() throws ConfigException {
    Properties p = new Properties();
    p.setProperty("postgis.url", "jdbc:postgresql://db.example:5432/bench?user=ana%40lab&password=secret");
    PostgisSettings s = PostgisSettings.fromProperties(p);
    String message = Connections.explain(s, new SQLException("bad password", "28P01"));
    assertThat(message).startsWith("Authentication failed for user 'ana@lab' at").contains("the user in postgis.url")
        .doesNotContain("null").doesNotContain("secret");
    assertThat(Connections.userInUrl("jdbc:postgresql://bench:pw@db/x")).isEqualTo("bench");
    assertThat(Connections.userInUrl("jdbc:postgresql://db/x")).isNull();
  }
}
