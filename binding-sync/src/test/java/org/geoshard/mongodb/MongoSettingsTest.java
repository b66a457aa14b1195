package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.ReadPreference;
import com.mongodb.WriteConcern;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.config.UnknownProperties;
import org.geoshard.mongodb.MongoSettings.IndexWhen;
import org.junit.jupiter.api.Test;

class MongoSettingsTest {

  private static Properties props(String... pairs) {
    Properties p = new Properties();
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return p;
  }

  private static List<String> problems(String... pairs) {
    try {
      MongoSettings.fromProperties(props(pairs));
    } catch (ConfigException e) {
      return e.problems();
    }
    throw new AssertionError("expected a ConfigException for " + List.of(pairs));
  }

  @Test
  void defaultsAreDocumented() throws Exception {
    MongoSettings s = MongoSettings.fromProperties(new Properties());
    assertThat(s.connection().url()).isEqualTo("mongodb://localhost:27017/ycsb");
    assertThat(s.connection().database()).isEqualTo("ycsb");
    assertThat(s.collection()).isEqualTo("restaurants");
    assertThat(s.namespace()).isEqualTo("ycsb.restaurants");
    assertThat(s.connection().serverSelectionTimeout(TimeUnit.SECONDS)).isEqualTo(5);
    assertThat(s.writes().geoBatchSize()).as("the geo load's batch").isEqualTo(100);
    assertThat(s.writes().ycsbBatchSize()).as("YCSB's insert: one at a time, as YCSB").isEqualTo(1);
    assertThat(s.writes().writeConcern()).isNull();
    assertThat(s.queries().readPreference()).isNull();
    assertThat(s.connection().maxConnections()).isNull();
    assertThat(s.writes().upsert()).isFalse();
    assertThat(s.preparation().drop()).isFalse();
    assertThat(s.preparation().shardKey()).as("unsharded").isNull();
    assertThat(s.preparation().numInitialChunks()).isNull();
    assertThat(s.preparation().indexWhen()).as("the study's choice").isEqualTo(IndexWhen.AFTER);
    assertThat(s.preparation().indexPoll(TimeUnit.MILLISECONDS)).isEqualTo(250);
    assertThat(s.doTransactions()).isNull();
    assertThat(s.connection().throwaway()).isNull();
  }

  @Test
  void everyPropertyIsRead() throws Exception {
    MongoSettings s = MongoSettings.fromProperties(props(
        "mongodb.url", "mongodb://db1:27017,db2:27017/bench?replicaSet=rs0",
        "mongodb.collection", "places",
        "mongodb.writeConcern", "majority",
        "mongodb.readPreference", "secondary_preferred",
        "mongodb.serverSelectionTimeout", "30",
        "mongodb.maxconnections", "50",
        "mongodb.upsert", "true",
        "batchsize", "500",
        "mongodb.drop", "true",
        "mongodb.shardkey", "Name:hashed",
        "mongodb.numInitialChunks", "12",
        "mongodb.index.when", "before",
        "mongodb.index.pollms", "100",
        "dotransactions", "false"));
    assertThat(s.connection().database()).isEqualTo("bench");
    assertThat(s.collection()).isEqualTo("places");
    assertThat(s.writes().writeConcern()).isEqualTo(WriteConcern.MAJORITY);
    assertThat(s.queries().readPreference()).isEqualTo(ReadPreference.secondaryPreferred());
    assertThat(s.connection().serverSelectionTimeout(TimeUnit.SECONDS)).isEqualTo(30);
    assertThat(s.connection().maxConnections()).isEqualTo(50);
    assertThat(s.writes().upsert()).isTrue();
    assertThat(s.writes().geoBatchSize()).isEqualTo(500);
    assertThat(s.writes().ycsbBatchSize()).as("batchsize applies to both").isEqualTo(500);
    assertThat(s.preparation().drop()).isTrue();
    assertThat(s.preparation().shardKey()).isEqualTo(ShardKey.of("Name:hashed"));
    assertThat(s.preparation().numInitialChunks()).isEqualTo(12);
    assertThat(s.preparation().indexWhen()).isEqualTo(IndexWhen.BEFORE);
    assertThat(s.preparation().indexPoll(TimeUnit.MILLISECONDS)).isEqualTo(100);
    assertThat(s.doTransactions()).isFalse();
  }

  @Test
  void ycsbWriteConcernNamesAndNumbers() {
    List<String> none = new java.util.ArrayList<>();
    assertThat(MongoSettings.parseWriteConcern("acknowledged", none)).isEqualTo(WriteConcern.W1);
    assertThat(MongoSettings.parseWriteConcern("unacknowledged", none)).isEqualTo(WriteConcern.UNACKNOWLEDGED);
    assertThat(MongoSettings.parseWriteConcern("errors_ignored", none)).isEqualTo(WriteConcern.UNACKNOWLEDGED);
    assertThat(MongoSettings.parseWriteConcern("journaled", none)).isEqualTo(WriteConcern.W1.withJournal(true));
    assertThat(MongoSettings.parseWriteConcern("replica_acknowledged", none)).isEqualTo(WriteConcern.W2);
    assertThat(MongoSettings.parseWriteConcern("MAJORITY", none)).isEqualTo(WriteConcern.MAJORITY);
    assertThat(MongoSettings.parseWriteConcern("3", none)).isEqualTo(new WriteConcern(3));
    assertThat(none).isEmpty();
  }

  @Test
  void theDatabaseComesFromTheUrlButAdminOnlyAuthenticates() throws Exception {
    assertThat(MongoSettings.fromProperties(props("mongodb.url", "mongodb://h/geo")).connection().database()).isEqualTo("geo");
    assertThat(MongoSettings.fromProperties(props("mongodb.url", "mongodb://h")).connection().database()).isEqualTo("ycsb");
    assertThat(MongoSettings.fromProperties(props("mongodb.url", "mongodb://u:p@h/admin")).connection().database()).isEqualTo("ycsb");
  }

  @Test
  void writeConcernAndReadPreferenceMayComeFromTheUrl() throws Exception {
    MongoSettings s = MongoSettings.fromProperties(props("mongodb.url", "mongodb://h/ycsb?w=majority&readPreference=nearest",
        "mongodb.writeConcern", "majority", "mongodb.readPreference", "nearest"));
    assertThat(s.connection().connectionString().getWriteConcern()).isEqualTo(WriteConcern.MAJORITY);
    assertThat(s.writes().writeConcern()).isEqualTo(WriteConcern.MAJORITY);
  }

  @Test
  void throwawayUrls() throws Exception {
    assertThat(MongoSettings.fromProperties(props("mongodb.url", "testcontainers:3s")).connection().throwaway())
        .isEqualTo(new ThrowawaySpec(3, "mongo:8.0"));
    assertThat(MongoSettings.fromProperties(props("mongodb.url", "testcontainers:0s")).connection().throwaway().shards()).isZero();
    assertThat(MongoSettings.fromProperties(props("mongodb.url", "testcontainers:2s?image=mongo:7.0")).connection().throwaway())
        .isEqualTo(new ThrowawaySpec(2, "mongo:7.0"));
    assertThat(new ThrowawaySpec(2, "mongo:7.0").url()).isEqualTo("testcontainers:2s?image=mongo:7.0");
    assertThat(MongoSettings.fromProperties(props("mongodb.url", "testcontainers:3s")).connection().database()).isEqualTo("ycsb");
  }

  @Test
  void errorMessagesNameTheProperty() {
    assertThat(problems("mongodb.url", "http://db:27017/")).containsExactly(
        "Property 'mongodb.url' must be a mongodb:// or mongodb+srv:// connection string, or testcontainers:3s for a "
            + "throwaway cluster, but is 'http://db:27017/'.");
    assertThat(problems("mongodb.url", "mongodb://db:notaport/ycsb")).singleElement().asString()
        .startsWith("Property 'mongodb.url' is not a valid connection string ('mongodb://db:notaport/ycsb'): ");
    assertThat(problems("mongodb.url", "testcontainers:9s")).containsExactly(
        "Property 'mongodb.url' must be testcontainers:0s, :2s or :3s (up to :5s; optionally ?image=mongo:7.0) for a "
            + "throwaway cluster, but is 'testcontainers:9s'.");
    assertThat(problems("mongodb.collection", "system.profile")).containsExactly(
        "Property 'mongodb.collection' must be a collection name (not empty, no '$', not system.*), but is 'system.profile'.");
    assertThat(problems("mongodb.writeConcern", "sometimes")).containsExactly(
        "Property 'mongodb.writeConcern' must be one of acknowledged, unacknowledged, journaled, replica_acknowledged, "
            + "majority, or a number of members from 0 to 50, but is 'sometimes'.");
    assertThat(problems("mongodb.url", "mongodb://h/ycsb?w=1", "mongodb.writeConcern", "majority")).containsExactly(
        "Property 'mongodb.writeConcern' (w=majority) disagrees with the write concern of 'mongodb.url' (w=1); set it in one place.");
    assertThat(problems("mongodb.url", "mongodb://h/ycsb?readPreference=secondary", "mongodb.readPreference", "primary"))
        .containsExactly("Property 'mongodb.readPreference' (primary) disagrees with the readPreference of 'mongodb.url' "
            + "(secondary); set it in one place.");
    assertThat(problems("mongodb.readPreference", "closest")).containsExactly(
        "Property 'mongodb.readPreference' must be one of primary, primarypreferred, secondary, secondarypreferred, nearest, "
            + "but is 'closest'.");
    assertThat(problems("mongodb.serverSelectionTimeout", "0")).containsExactly(
        "Property 'mongodb.serverSelectionTimeout' must be a whole number of at least 1, but is '0'.");
    assertThat(problems("mongodb.maxconnections", "0")).containsExactly(
        "Property 'mongodb.maxconnections' must be a whole number from 1 to 100000, but is '0'.");
    assertThat(problems("batchsize", "0")).containsExactly(
        "Property 'batchsize' must be a whole number from 1 to 100000, but is '0'.");
    assertThat(problems("mongodb.upsert", "yes")).containsExactly(
        "Property 'mongodb.upsert' must be true or false, but is 'yes'.");
    assertThat(problems("mongodb.drop", "1")).containsExactly("Property 'mongodb.drop' must be true or false, but is '1'.");
    assertThat(problems("mongodb.index.when", "during")).containsExactly(
        "Property 'mongodb.index.when' must be one of before, after, but is 'during'.");
    assertThat(problems("mongodb.index.pollms", "5")).containsExactly(
        "Property 'mongodb.index.pollms' must be a whole number of at least 10, but is '5'.");
    assertThat(problems("mongodb.index.pollms", "60000")).containsExactly(
        "Property 'mongodb.index.pollms' must be from 10 to 10000 (milliseconds), but is 60000.");
    assertThat(problems("mongodb.numInitialChunks", "8")).containsExactly(
        "Property 'mongodb.numInitialChunks' applies only to a hashed shard key, but 'mongodb.shardkey' is not set.");
    assertThat(problems("mongodb.numInitialChunks", "8", "mongodb.shardkey", "City:1")).containsExactly(
        "Property 'mongodb.numInitialChunks' applies only to a hashed shard key, but 'mongodb.shardkey' is 'City:1'.");
    assertThat(problems("mongodb.numInitialChunks", "0", "mongodb.shardkey", "Name:hashed")).containsExactly(
        "Property 'mongodb.numInitialChunks' must be a whole number from 1 to 8192000, but is '0'.");
    assertThat(problems("mongodb.shardkey", "Name:hashed", "mongodb.url", "testcontainers:0s")).containsExactly(
        "Property 'mongodb.shardkey' is 'Name:hashed', but 'mongodb.url' is testcontainers:0s, a standalone server; "
            + "use testcontainers:2s or :3s for a sharded cluster.");
    assertThat(problems("dotransactions", "maybe")).containsExactly(
        "Property 'dotransactions' must be true or false, but is 'maybe'.");
  }

  @Test
  void builderChecksWhatPropertiesCannotSay() {
    assertThatThrownBy(() -> MongoSettings.builder().applyToConnection(c -> c.serverSelectionTimeout(500, TimeUnit.MILLISECONDS)).build())
        .isInstanceOf(ConfigException.class)
        .hasMessage("Property 'mongodb.serverSelectionTimeout' must be at least 1 second, but is 500 ms.");
    assertThatThrownBy(() -> MongoSettings.builder().applyToWrites(w -> w.batchSize(0))
        .applyToConnection(c -> c.maxConnections(0)).applyToPreparation(p -> p.indexWhen(null)).build())
        .isInstanceOf(ConfigException.class)
        .satisfies(e -> assertThat(((ConfigException) e).problems()).containsExactly(
            "Property 'mongodb.maxconnections' must be at least 1, but is 0.",
            "Property 'batchsize' must be from 1 to 100000, but is 0.",
            "Property 'mongodb.index.when' must be before or after."));
  }

  @Test
  void everyProblemIsReportedAtOnce() {
    assertThat(problems("mongodb.url", "ftp://x", "batchsize", "-1", "mongodb.shardkey", "Name", "mongodb.writeConcern", "x"))
        .hasSize(4)
        .anyMatch(p -> p.startsWith("Property 'mongodb.url'"))
        .anyMatch(p -> p.startsWith("Property 'batchsize'"))
        .anyMatch(p -> p.startsWith("Property 'mongodb.shardkey'"))
        .anyMatch(p -> p.startsWith("Property 'mongodb.writeConcern'"));
  }

  @Test
  void passwordsNeverShow() throws Exception {
    MongoSettings s = MongoSettings.fromProperties(props("mongodb.url", "mongodb://bench:hunter2@db1:27017/ycsb"));
    assertThat(s.connection().maskedUrl()).isEqualTo("mongodb://bench:****@db1:27017/ycsb");
    assertThat(s.toString()).contains("mongodb://bench:****@db1:27017/ycsb").doesNotContain("hunter2");
    assertThat(String.join(" ", problems("mongodb.url", "mongodb://bench:hunter2@db1:notaport/ycsb")))
        .contains("bench:****@").doesNotContain("hunter2");
    assertThat(String.join(" ", problems("mongodb.url", "mongo://bench:hunter2@db1/ycsb")))
        .contains("mongo://bench:****@db1/ycsb").doesNotContain("hunter2");
  }

  @Test
  void theCatalogKnowsEveryPropertySoTyposAreRefused() {
    UnknownProperties unknown = new UnknownProperties(List.of(new MongoProperties()));
    assertThat(unknown.problems(props("mongodb.shardKey", "Name:hashed", "mongodb.url", "mongodb://h",
        "mongodb.index.when", "after", "batchsize", "10")))
        .containsExactly("Property 'mongodb.shardKey' is unknown; did you mean 'mongodb.shardkey'?");
    assertThat(unknown.problems(props("mongodb.servreSelectionTimeout", "2")))
        .containsExactly("Property 'mongodb.servreSelectionTimeout' is unknown; did you mean 'mongodb.serverSelectionTimeout'?");
  }

  @Test
  void theCatalogIsFoundByServiceLoader() {
    assertThat(java.util.ServiceLoader.load(org.geoshard.harness.config.PropertyCatalog.class).stream()
        .map(p -> p.type().getName())).contains(MongoProperties.class.getName());
  }

  @Test
  void everyRequestHasADeadlineAndTheUrlsTimeoutsWinOverTheDefaults() throws Exception {
    MongoSettings defaults = MongoSettings.fromProperties(new Properties());
    assertThat(defaults.connection().timeout(TimeUnit.MILLISECONDS)).isEqualTo(30_000);
    assertThat(defaults.connection().serverSelectionTimeout(TimeUnit.MILLISECONDS)).isEqualTo(5_000);
    assertThat(MongoSettings.fromProperties(props("mongodb.timeout.ms", "2500")).connection().timeout(TimeUnit.MILLISECONDS))
        .isEqualTo(2500);
    MongoSettings fromUrl = MongoSettings.fromProperties(props("mongodb.url",
        "mongodb://h:27017/ycsb?serverSelectionTimeoutMS=45000&timeoutMS=90000"));
    assertThat(fromUrl.connection().serverSelectionTimeout(TimeUnit.MILLISECONDS)).as("the URL's, not the 5 s default").isEqualTo(45_000);
    assertThat(fromUrl.connection().timeout(TimeUnit.MILLISECONDS)).isEqualTo(90_000);
    assertThat(problems("mongodb.url", "mongodb://h:27017/ycsb?serverSelectionTimeoutMS=45000",
        "mongodb.serverSelectionTimeout", "5", "mongodb.timeout.ms", "60000")).containsExactly(
        "Property 'mongodb.serverSelectionTimeout' (5000 ms) disagrees with serverSelectionTimeoutMS=45000 in "
            + "'mongodb.url'; set it in one place.");
    assertThat(problems("mongodb.url", "mongodb://h:27017/ycsb?timeoutMS=0")).containsExactly(
        "'mongodb.url' sets timeoutMS=0 (no deadline), but every request needs one: remove it and set mongodb.timeout.ms.");
    assertThat(problems("mongodb.timeout.ms", "0")).hasSize(1);
  }

  /** The driver's deadline bounds server selection too (ClientOptionsTest pins it): a longer selection is refused. */
  @Test
  void aServerSelectionTimeoutLongerThanTheDeadlineIsRefusedNamingBoth() throws Exception {
    assertThat(problems("mongodb.serverSelectionTimeout", "20", "mongodb.timeout.ms", "300")).containsExactly(
        "Property 'mongodb.serverSelectionTimeout' (20000 ms) is longer than 'mongodb.timeout.ms' (300 ms), every "
            + "request's deadline, which bounds its server selection too: a request would give up after 300 ms, not "
            + "20000 ms. Raise mongodb.timeout.ms to at least 20000 or lower the server selection timeout to at most 300 ms.");
    assertThat(problems("mongodb.serverSelectionTimeout", "60")).as("against the default deadline").containsExactly(
        "Property 'mongodb.serverSelectionTimeout' (60000 ms) is longer than 'mongodb.timeout.ms' (30000 ms, the default), "
            + "every request's deadline, which bounds its server selection too: a request would give up after 30000 ms, "
            + "not 60000 ms. Raise mongodb.timeout.ms to at least 60000 or lower the server selection timeout to at most "
            + "30000 ms.");
    assertThat(problems("mongodb.url", "mongodb://h:27017/ycsb?serverSelectionTimeoutMS=45000&timeoutMS=9000"))
        .containsExactly("serverSelectionTimeoutMS=45000 in 'mongodb.url' is longer than timeoutMS=9000 in 'mongodb.url', "
            + "every request's deadline, which bounds its server selection too: a request would give up after 9000 ms, "
            + "not 45000 ms. Raise timeoutMS to at least 45000 or lower the server selection timeout to at most 9000 ms.");
    assertThat(problems("mongodb.serverSelectionTimeout", "500", "mongodb.index.timeout.ms", "60000",
        "mongodb.timeout.ms", "3600000")).containsExactly(
        "Property 'mongodb.serverSelectionTimeout' (500000 ms) is longer than 'mongodb.index.timeout.ms' (60000 ms), the "
            + "index build's deadline, which bounds its server selection too. Raise mongodb.index.timeout.ms to at least "
            + "500000 or lower the server selection timeout to at most 60000 ms.");
    assertThat(problems("mongodb.url", "mongodb://h:27017/ycsb?timeoutMS=0&serverSelectionTimeoutMS=5000"))
        .as("no deadline is refused on its own, not as a second sentence").hasSize(1);

    MongoSettings equal = MongoSettings.fromProperties(props("mongodb.serverSelectionTimeout", "30"));
    assertThat(equal.connection().serverSelectionTimeout(TimeUnit.SECONDS)).as("as long as the default deadline").isEqualTo(30);
    MongoSettings scenario = MongoSettings.fromProperties(props("mongodb.serverSelectionTimeout", "500",
        "mongodb.timeout.ms", "3600000"));
    assertThat(scenario.connection().serverSelectionTimeout(TimeUnit.SECONDS)).as("the geo scenario files'").isEqualTo(500);
    MongoSettings shortDeadline = MongoSettings.fromProperties(props("mongodb.timeout.ms", "300"));
    assertThat(shortDeadline.connection().serverSelectionTimeout(TimeUnit.SECONDS)).as("the default is not checked").isEqualTo(5);
  }

  @Test
  void numInitialChunksIsRefusedForAKeyWhoseFirstFieldIsRanged() {
    assertThat(problems("mongodb.shardkey", "City:1,_id:hashed", "mongodb.numInitialChunks", "8")).containsExactly(
        "Property 'mongodb.numInitialChunks' cannot be used with 'mongodb.shardkey' = 'City:1,_id:hashed': its first "
            + "field is ranged, and servers before 7.2 reject numInitialChunks for such a key (it needs zones and "
            + "presplitHashedZones); without it the collection starts as one chunk on the primary shard.");
  }

  @Test
  void theLastKnownLocationKeyMustStartWithId() throws Exception {
    Properties p = props("mongodb.ll.lkl.shardkey", "CellId:hashed");
    assertThatThrownBy(() -> MongoLastLocationSettings.fromProperties(p)).isInstanceOf(ConfigException.class)
        .hasMessageContaining("Property 'mongodb.ll.lkl.shardkey' is 'CellId:hashed', but the Last-Known-Location upsert "
            + "is only correct when the key is _id:hashed or starts with _id");
    assertThat(MongoLastLocationSettings.fromProperties(props("mongodb.ll.lkl.shardkey", "_id:hashed")).lklKey())
        .hasToString("_id:hashed");
    assertThat(MongoLastLocationSettings.fromProperties(props("mongodb.ll.lkl.shardkey", "_id:1,CellId:1")).lklKey())
        .hasToString("_id:1,CellId:1");
  }

  @Test
  void anOverlongAppNameIsAUsageErrorNamingTheLimit() throws Exception {
    String megabyte = "a".repeat(1 << 20);
    assertThat(problems("mongodb.url", "mongodb://db:27017/ycsb?appName=" + megabyte)).containsExactly(
        "Property 'mongodb.url': appName is 1048576 bytes long; MongoDB allows at most 128 (UTF-8).");
    // At the limit it is accepted.
    MongoSettings.fromProperties(props("mongodb.url", "mongodb://db:27017/ycsb?appName=" + "a".repeat(128)));
  }
}
