package org.geoshard.mongodb.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Properties;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.config.UnknownProperties;
import org.geoshard.mongodb.MongoProperties;
import org.junit.jupiter.api.Test;

/** The routing properties: defaults, both forms of the per-shard routers, every problem in one sentence. */
class AsyncSettingsTest {

  private static Properties props(String... pairs) {
    Properties p = new Properties();
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return p;
  }

  private static AsyncSettings settings(String... pairs) throws ConfigException {
    return AsyncSettings.fromProperties(props(pairs), List.of());
  }

  private static List<String> problems(String... pairs) {
    try {
      settings(pairs);
      return List.of();
    } catch (ConfigException e) {
      return e.problems();
    }
  }

  @Test
  void defaultsAreOneRouterLikeTheSyncBinding() throws Exception {
    AsyncSettings s = settings();
    assertThat(s.routing()).isEqualTo(AsyncSettings.Routing.MONGOS);
    assertThat(s.targeted()).isFalse();
    assertThat(s.endpoints()).isEmpty();
    assertThat(s.refreshSeconds()).isEqualTo(10);
    assertThat(s.mongo().connection().url()).isEqualTo("mongodb://localhost:27017/ycsb");
  }

  @Test
  void targetedWithPerShardNamesOrTheOneListProperty() throws Exception {
    AsyncSettings named = settings("mongodb.routing", "targeted", "mongodb.targeted.refresh", "3",
        "mongodb.targeted.mongos.shard01", "mongodb://u:secret@eu-1:27017/ycsb?authSource=admin",
        "mongodb.targeted.mongos.shard02", "mongodb://ap-1:27017");
    assertThat(named.targeted()).isTrue();
    assertThat(named.refreshSeconds()).isEqualTo(3);
    assertThat(named.endpoints()).containsOnlyKeys("shard01", "shard02");
    assertThat(named.toString()).doesNotContain("secret");
    AsyncSettings listed = settings("mongodb.routing", "targeted",
        "mongodb.targeted.mongos", "shard01=mongodb://eu-1:27017/ycsb?authSource=admin; shard02=mongodb://ap-1:27017");
    assertThat(listed.endpoints()).isEqualTo(java.util.Map.of("shard01", "mongodb://eu-1:27017/ycsb?authSource=admin",
        "shard02", "mongodb://ap-1:27017"));
    // Routers given with routing=mongos are accepted and unused (one connection file serves both variants).
    assertThat(settings("mongodb.targeted.mongos.shard01", "mongodb://eu-1:27017").targeted()).isFalse();
  }

  @Test
  void everyProblemNamesItsProperty() {
    assertThat(problems("mongodb.routing", "nearest")).singleElement().asString()
        .contains("'mongodb.routing'").contains("mongos, targeted");
    assertThat(problems("mongodb.routing", "targeted")).singleElement().asString()
        .contains("mongodb.targeted.mongos.<shardId>");
    assertThat(problems("mongodb.routing", "targeted", "mongodb.targeted.mongos.s1", "mongodb://a:1,b:2")).singleElement()
        .asString().contains("exactly one mongos host");
    assertThat(problems("mongodb.targeted.mongos.s1", "mongodb+srv://cluster.example.net")).singleElement().asString()
        .contains("mongodb+srv");
    assertThat(problems("mongodb.targeted.mongos.s1", "mongodb://a:1/?replicaSet=rs0")).singleElement().asString()
        .contains("replica set");
    assertThat(problems("mongodb.targeted.mongos.s1", "mongodb://a:1/?directConnection=false")).singleElement().asString()
        .contains("directConnection=false");
    assertThat(problems("mongodb.targeted.mongos.s1", "http://u:pw@a:1")).singleElement().asString()
        .contains("****").doesNotContain("pw");
    assertThat(problems("mongodb.targeted.mongos", "s1")).singleElement().asString().contains("<shardId>=<url>");
    assertThat(problems("mongodb.targeted.mongos", "s1=mongodb://a:1", "mongodb.targeted.mongos.s1", "mongodb://a:1"))
        .singleElement().asString().contains("twice");
    assertThat(problems("mongodb.targeted.refresh", "0")).singleElement().asString().contains("mongodb.targeted.refresh");
    assertThat(problems("mongodb.targeted.refresh", "86400")).singleElement().asString().contains("3600");
    assertThat(problems("mongodb.routing", "targeted", "mongodb.url", "testcontainers:3s",
        "mongodb.targeted.mongos.rs0", "mongodb://a:1")).singleElement().asString().contains("throwaway");
    // A load balancer in front of one router pins by itself.
    assertThat(problems("mongodb.targeted.mongos.s1", "mongodb+srv://lb.example.net/?loadBalanced=true")).isEmpty();
  }

  @Test
  void theCatalogChecksOnlyItsOwnValues() {
    AsyncProperties catalog = new AsyncProperties();
    assertThat(catalog.problems(props("mongodb.routing", "targeted", "mongodb.writeConcern", "sometimes"))).singleElement()
        .asString().contains("mongodb.routing");  // the write concern is binding-sync's catalog's to report
    assertThat(catalog.problems(props())).isEmpty();
    assertThat(catalog.names()).contains("mongodb.routing", "mongodb.targeted.refresh", "mongodb.targeted.mongos");
  }

  /** Both forms of the per-shard routers pass the harness's check of names; a typo does not. */
  @Test
  void theHarnessAcceptsBothFormsOfThePerShardRouters() {
    UnknownProperties check = new UnknownProperties(List.of(new MongoProperties(), new AsyncProperties()));
    assertThat(check.problems(props("mongodb.routing", "targeted", "mongodb.targeted.mongos", "shard01=mongodb://a:1")))
        .isEmpty();
    assertThat(check.problems(props("mongodb.routing", "targeted", "mongodb.targeted.mongos.shard01", "mongodb://a:1")))
        .isEmpty();
    assertThat(check.problems(props("mongodb.routing", "targeted", "mongodb.targeted.mongoz.shard01", "mongodb://a:1")))
        .anyMatch(p -> p.contains("'mongodb.targeted.mongoz.shard01' is unknown"));
    assertThat(check.problems(props("mongodb.routng", "targeted"))).singleElement().asString().contains("mongodb.routing");
  }

  @Test
  void refusedAtInitWithTheSentences() {
    MongoAsyncBinding b = new MongoAsyncBinding();
    b.setProperties(props("mongodb.routing", "targeted"));
    assertThatThrownBy(b::init).hasMessageContaining("mongodb.targeted.mongos.<shardId>");
  }
}
