package org.geoshard.harness.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;
import org.junit.jupiter.api.Test;

class SecretsTest {
  @Test
  void masksPasswordInMongoUrlsKeepingUserAndHosts() {
    assertThat(Secrets.maskText("mongodb://bench:s3cr%40t@10.0.0.1:27017,10.0.0.2:27017/ycsb?w=1"))
        .isEqualTo("mongodb://bench:****@10.0.0.1:27017,10.0.0.2:27017/ycsb?w=1");
    assertThat(Secrets.maskText("mongodb+srv://u:p@cluster0.example.net/db"))
        .isEqualTo("mongodb+srv://u:****@cluster0.example.net/db");
  }

  @Test
  void leavesUrlsWithoutPasswordAlone() {
    assertThat(Secrets.maskText("mongodb://localhost:27017/ycsb")).isEqualTo("mongodb://localhost:27017/ycsb");
    assertThat(Secrets.maskText("mongodb://user@host/db")).isEqualTo("mongodb://user@host/db");
  }

  @Test
  void masksPasswordsInQueryStrings() {
    assertThat(Secrets.maskText("jdbc:postgresql://localhost:5432/bench?user=a&password=hunter2&ssl=false"))
        .isEqualTo("jdbc:postgresql://localhost:5432/bench?user=a&password=****&ssl=false");
  }

  @Test
  void masksWholeValuesOfSecretProperties() {
    Properties p = new Properties();
    p.setProperty("postgis.password", "hunter2");
    p.setProperty("mongodb.url", "mongodb://a:b@h/db");
    p.setProperty("threadcount", "4");
    assertThat(Secrets.masked(p)).containsEntry("postgis.password", Secrets.MASK)
        .containsEntry("mongodb.url", "mongodb://a:****@h/db")
        .containsEntry("threadcount", "4");
  }
}
