package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoCredential;
import com.mongodb.MongoSecurityException;
import com.mongodb.MongoTimeoutException;
import com.mongodb.ServerAddress;
import com.mongodb.connection.ClusterConnectionMode;
import com.mongodb.connection.ClusterDescription;
import com.mongodb.connection.ClusterType;
import com.mongodb.connection.ServerConnectionState;
import com.mongodb.connection.ServerDescription;
import java.net.ConnectException;
import java.util.List;
import java.util.Properties;
import org.bson.BsonDocument;
import org.geoshard.harness.api.Preparable;
import org.junit.jupiter.api.Test;
import site.ycsb.DBException;

/** The sentences users see when the binding cannot start; passwords never show. */
class FailuresTest {
  private static MongoSettings settings(String url) throws Exception {
    Properties p = new Properties();
    p.setProperty("mongodb.url", url);
    p.setProperty("mongodb.serverSelectionTimeout", "2");
    return MongoSettings.fromProperties(p);
  }

  private static ClusterDescription refused(String host, int port) {
    ServerDescription server = ServerDescription.builder().address(new ServerAddress(host, port))
        .state(ServerConnectionState.CONNECTING)
        .exception(new com.mongodb.MongoSocketOpenException("Exception opening socket", new ServerAddress(host, port),
            new ConnectException("Connection refused")))
        .build();
    return new ClusterDescription(ClusterConnectionMode.SINGLE, ClusterType.UNKNOWN, List.of(server));
  }

  @Test
  void unreachableSaysWhereItTriedAndForHowLong() throws Exception {
    MongoSettings s = settings("mongodb://bench:hunter2@db1:27017/ycsb");
    String message = Failures.describe(new MongoTimeoutException("Timed out while waiting for a server"), s, s.connection().url(),
        refused("db1", 27017));
    assertThat(message).isEqualTo("No MongoDB server answered at mongodb://bench:****@db1:27017/ycsb within 2 s "
        + "(tried db1:27017: Connection refused); check mongodb.url and that the server runs "
        + "(mongodb.serverSelectionTimeout sets how long to wait).");
  }

  @Test
  void authenticationFailureNamesTheUser() throws Exception {
    MongoSettings s = settings("mongodb://bench:hunter2@db1:27017/ycsb?authSource=admin");
    MongoCommandException cause = new MongoCommandException(BsonDocument.parse(
        "{ok: 0, errmsg: 'Authentication failed.', code: 18, codeName: 'AuthenticationFailed'}"), new ServerAddress("db1"));
    MongoSecurityException e = new MongoSecurityException(
        MongoCredential.createScramSha256Credential("bench", "admin", "hunter2".toCharArray()), "Exception authenticating", cause);
    String message = Failures.describe(new RuntimeException(e), s, s.connection().url(), null);
    assertThat(message).isEqualTo("Authentication failed at mongodb://bench:****@db1:27017/ycsb?authSource=admin for user "
        + "'bench' (authSource 'admin'): Authentication failed.: check the user name, password and authSource in mongodb.url.");
    assertThat(message).doesNotContain("hunter2");
  }

  @Test
  void missingPrivilegesSayWhatIsNeeded() throws Exception {
    MongoSettings s = settings("mongodb://reader:pw@db1/ycsb");
    MongoCommandException e = new MongoCommandException(BsonDocument.parse(
        "{ok: 0, errmsg: 'not authorized on admin to execute command { listShards: 1 }', code: 13}"), new ServerAddress("db1"));
    assertThat(Failures.describe(e, s, s.connection().url(), null)).startsWith("The user of mongodb://reader:****@db1/ycsb is not "
        + "authorized: not authorized on admin to execute command { listShards: 1 } (the binding needs readWrite");
  }

  @Test
  void aThrowawayClusterShowsBothUrls() throws Exception {
    MongoSettings s = settings("testcontainers:3s");
    assertThat(Failures.describe(new IllegalStateException("boom"), s, "mongodb://localhost:32768/ycsb", null))
        .isEqualTo("MongoDB at testcontainers:3s (mongodb://localhost:32768/ycsb) failed: boom");
  }

  @Test
  void startExceptionsAreMaskedAndCarryNoTrace() {
    MongoStartException e = new MongoStartException("cannot reach mongodb://u:secret@h/ycsb");
    assertThat(e).hasMessage("cannot reach mongodb://u:****@h/ycsb");
    assertThat(e.getStackTrace()).isEmpty();
  }

  @Test
  void aFailedPreparationStepIsOneSentenceWithTheStepTheCollectionAndTheServersAnswer() {
    RecordingSteps running = new RecordingSteps();
    Preparable.Steps onRestaurants = Failures.sayingTheServersAnswer(running, "ycsb.restaurants");
    MongoCommandException refused = new MongoCommandException(BsonDocument.parse("{ok: 0, errmsg: 'index not found"
        + " with name [location_2dsphere]', code: 27, codeName: 'IndexNotFound', $clusterTime: {signature: 'x'}}"),
        new ServerAddress("db1"));
    assertThatThrownBy(() -> onRestaurants.step("2dsphere index", () -> {
      throw refused;
    })).isInstanceOf(DBException.class)
        .hasMessage("step '2dsphere index' on ycsb.restaurants failed: the server answered IndexNotFound (code 27):"
            + " index not found with name [location_2dsphere]");
    // Not a server's answer (a timeout): what went wrong, without the collection when the step names it.
    assertThatThrownBy(() -> Failures.sayingTheServersAnswer(running, null).step("create collection usertable", () -> {
      throw new MongoTimeoutException("Timed out after 30000 ms while waiting for a server");
    })).hasMessage("step 'create collection usertable' failed: Timed out after 30000 ms while waiting for a server");
    // A binding's own refusal is already a sentence: passed on as it is.
    assertThatThrownBy(() -> onRestaurants.step("create collection", () -> {
      throw new MongoStartException("Collection ycsb.restaurants already holds 5 documents");
    })).hasMessage("Collection ycsb.restaurants already holds 5 documents");
  }
}
