package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Properties;
import java.util.Set;
import org.bson.Document;
import org.geoshard.harness.api.DataDeclaration;
import org.geoshard.harness.api.DataRole;
import org.geoshard.harness.api.SharedObjects;
import org.geoshard.harness.api.StandaloneRun;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The binding's shared clients live in the phase's context: each phase has its own, the phase's end
 * closes what its instances left open, and instances that joined no phase (plain YCSB) share the JVM's.
 * What the workload declares (YCSB's table) comes from the context too.
 */
class RunContextTest {
  private InProcessMongo mongo;

  @BeforeEach
  void start() {
    mongo = new InProcessMongo();
  }

  @AfterEach
  void stop() {
    mongo.close();
    StandaloneRun.forget();
  }

  private MongoGeoBinding binding(SharedObjects phase, String... pairs) throws Exception {
    MongoGeoBinding db = new MongoGeoBinding();
    db.setProperties(mongo.properties(pairs));
    if (phase != null) {
      db.joinRun(phase);
    }
    db.init();
    return db;
  }

  private static boolean answers(com.mongodb.client.MongoClient client) {
    try {
      return client.getDatabase("admin").runCommand(new Document("ping", 1)).get("ok").equals(1.0);
    } catch (IllegalStateException closed) {
      return false;
    }
  }

  @Test
  void twoPhasesGetClientsOfTheirOwnAndEachPhaseSharesOne() throws Exception {
    try (SharedObjects load = new SharedObjects(DataDeclaration.keyValue());
         SharedObjects run = new SharedObjects(DataDeclaration.keyValue())) {
      MongoGeoBinding a1 = binding(load);
      MongoGeoBinding a2 = binding(load);
      MongoGeoBinding b1 = binding(run);
      assertThat(a2.control().client()).as("one phase, one client").isSameAs(a1.control().client());
      assertThat(b1.control().client()).as("another phase, another client").isNotSameAs(a1.control().client());
      assertThat(SharedClients.in(load).openClients()).isEqualTo(1);
      assertThat(SharedClients.in(run).openClients()).isEqualTo(1);
      assertThat(LeftOpen.standaloneClients().openClients()).as("nothing in the JVM's").isZero();

      a1.cleanup();
      assertThat(answers(a2.control().client())).as("still held by the other instance").isTrue();
      a2.cleanup();
      assertThat(SharedClients.in(load).openClients()).as("the last instance of the phase closed it").isZero();
      assertThat(answers(b1.control().client())).as("the other phase's client goes on").isTrue();
      b1.cleanup();
      assertThat(SharedClients.in(run).openClients()).isZero();
    }
  }

  @Test
  void thePhasesEndClosesTheClientsItsInstancesLeftOpenAndRefusesNewOnes() throws Exception {
    SharedObjects phase = new SharedObjects(DataDeclaration.keyValue());
    MongoGeoBinding abandoned = binding(phase);
    var client = abandoned.control().client();
    SharedClients clients = SharedClients.in(phase);
    assertThat(clients.openClients()).isEqualTo(1);
    try (LeftOpen leftOpen = LeftOpen.watch()) {
      phase.close();
      assertThat(leftOpen.closedAtPhaseEnd()).hasSize(1);
    }
    assertThat(clients.openClients()).isZero();
    assertThat(answers(client)).as("closed with the phase").isFalse();
    assertThatThrownBy(() -> clients.acquire(MongoSettings.fromProperties(mongo.properties())))
        .isInstanceOf(MongoStartException.class).hasMessageContaining("after the end of its phase");
    abandoned.cleanup();  // a late cleanup lets go of nothing twice and does not fail
    assertThat(clients.openClients()).isZero();
  }

  @Test
  void instancesThatJoinedNoPhaseShareTheJvmsClients() throws Exception {
    MongoGeoBinding one = binding(null);
    MongoGeoBinding other = binding(null);
    try {
      assertThat(other.control().client()).isSameAs(one.control().client());
      assertThat(LeftOpen.standaloneClients().openClients()).isEqualTo(1);
    } finally {
      one.cleanup();
      other.cleanup();
    }
    assertThat(LeftOpen.standaloneClients().openClients()).isZero();
  }

  @Test
  void theThrowawayClustersOfAnEndedPhaseAreRefused() {
    ThrowawayClusters clusters = new ThrowawayClusters();
    clusters.close();
    clusters.close();
    assertThatThrownBy(() -> clusters.url(new ThrowawaySpec(2, ThrowawaySpec.DEFAULT_IMAGE), "ycsb"))
        .isInstanceOf(MongoStartException.class).hasMessageContaining("after the end of its phase");
  }

  @Test
  void theKeyValueTableIsTheOneTheContextDeclares() throws Exception {
    DataDeclaration declared = new DataDeclaration(Set.of(DataRole.KEY_VALUE), "declared", 0, null);
    try (SharedObjects phase = new SharedObjects(declared)) {
      // The raw property says otherwise: the binding goes by the declaration.
      MongoGeoBinding db = binding(phase, "table", "raw");
      try {
        assertThat(db.topology(Set.of(DataRole.KEY_VALUE))).containsEntry("namespace", "ycsb.declared");
      } finally {
        db.cleanup();
      }
    }
  }

  @Test
  void theLoadRangeIsTheOneTheContextDeclares() {
    assertThat(LoadRange.of(new DataDeclaration(Set.of(DataRole.KEY_VALUE), "usertable", 500, 301L)).describe())
        .isEqualTo("records 500 to 800");
    assertThat(LoadRange.of(DataDeclaration.keyValue()).split()).isFalse();
  }
}
