package org.geoshard.harness.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;
import org.geoshard.harness.run.HarnessProperties;
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

  @Test
  void neverShowsAnyPartOfAPasswordWhateverTheUrlsShape() {
    assertThat(Secrets.maskText("mongodb://bob:Lk@Zq9@host/db")).isEqualTo("mongodb://bob:****@host/db");
    assertThat(Secrets.maskText("mongodb://bob:a/b@c@h1:27017,h2/db?w=1")).isEqualTo("mongodb://bob:****@h1:27017,h2/db?w=1");
    assertThat(Secrets.maskText("mongodb://bob:p:q@host")).isEqualTo("mongodb://bob:****@host");
    assertThat(Secrets.maskText("mongodb://:secret@host")).isEqualTo("mongodb://:****@host");
    assertThat(Secrets.maskText("cannot reach 'mongodb://u:x@y@h/db' now; jdbc:postgresql://u:z@h2/db"))
        .isEqualTo("cannot reach 'mongodb://u:****@h/db' now; jdbc:postgresql://u:****@h2/db");
    // An '@' in the query makes more be masked, never less.
    assertThat(Secrets.maskText("mongodb://bob:pw@host/db?appName=me@x")).doesNotContain("pw").startsWith("mongodb://bob:****@");
  }

  @Test
  void namesAnUnencodedAtAsAProblemToPercentEncode() {
    Properties p = new Properties();
    p.setProperty("mongodb.url", "mongodb://bob:Lk@Zq9@host/db");
    p.setProperty("other.url", "mongodb://bob:Lk%40Zq9@host/db");
    assertThat(new HarnessProperties().problems(p)).containsExactly("Property 'mongodb.url': the password in"
        + " mongodb://bob:****@host/db holds an unencoded '@'; percent-encode it ('@' is %40, ':' is %3A, '/' is %2F).");
    assertThat(Secrets.hasUnencodedPassword("mongodb://user@host/db")).isFalse();
  }

  @Test
  void masksMegabyteValuesInLinearTime() {
    // The former regular expression took about 50 s for 100 KB and never finished 1 MB; a linear scan
    // takes milliseconds. The bound is generous (several hundred times the expected time), not tight.
    String[] shapes = {"a".repeat(1 << 20), "mongodb://" + "a".repeat(1 << 20), "x://".repeat(1 << 18),
        "mongodb://u:" + "p@".repeat(1 << 19) + "h/db", "a ".repeat(1 << 19) + "mongodb://u:secret@h",
        "password=".repeat(1 << 17)};
    for (String value : shapes) {
      long started = System.nanoTime();
      String masked = Secrets.maskText(value);
      Secrets.hasUnencodedPassword(value);
      long millis = (System.nanoTime() - started) / 1_000_000;
      assertThat(millis).as("masking %d characters", value.length()).isLessThan(10_000);
      assertThat(masked).doesNotContain("secret");
    }
    assertThat(Secrets.maskText("mongodb://u:" + "p@".repeat(1 << 19) + "h/db")).isEqualTo("mongodb://u:****@h/db");
  }
}
