package org.geoshard.harness.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DataDeclarationTest {
  static final DataRole CITIES = new DataRole("cities");

  /** A workload that declares one role. */
  public static final class CitiesWorkload implements DeclaresData {
    @Override
    public Set<DataRole> dataRoles() {
      return Set.of(CITIES);
    }
  }

  @Test
  void takesTheRolesFromTheWorkloadAndTheTableAndRangeFromYcsbsProperties() {
    Properties p = new Properties();
    p.setProperty("table", " places ");
    p.setProperty("insertstart", "1_000");
    p.setProperty("insertcount", "500");
    DataDeclaration data = DataDeclaration.of(new CitiesWorkload(), p);
    assertThat(data.roles()).containsExactly(CITIES);
    assertThat(data.declares(CITIES)).isTrue();
    assertThat(data.declares(DataRole.KEY_VALUE)).isFalse();
    assertThat(data.keyValueTable()).isEqualTo("places");
    assertThat(data.insertStart()).isEqualTo(1000);
    assertThat(data.insertCount()).isEqualTo(500);
    assertThat(data.loadsAPart()).isTrue();
  }

  @Test
  void aWorkloadThatDeclaresNothingLoadsKeyValueRecordsWithYcsbsDefaults() {
    DataDeclaration data = DataDeclaration.of(new Object(), new Properties());
    assertThat(data).isEqualTo(DataDeclaration.keyValue());
    assertThat(data.keyValueTable()).isEqualTo("usertable");
    assertThat(data.insertCount()).isNull();
    assertThat(data.loadsAPart()).isFalse();
  }

  @Test
  void needsARole() {
    assertThatThrownBy(() -> new DataDeclaration(Set.of(), "t", 0, null)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theStandaloneContextDeclaresTheWorkloadThePropertiesNameAndSharesObjectsAcrossTheJvm() {
    Properties p = new Properties();
    p.setProperty("workload", CitiesWorkload.class.getName());
    try {
      RunContext first = StandaloneRun.context(p);
      RunContext second = StandaloneRun.context(new Properties());
      assertThat(first.data().roles()).containsExactly(CITIES);
      assertThat(second.data()).isEqualTo(DataDeclaration.keyValue());
      assertThat(first.shared("k", StringBuilder.class, StringBuilder::new))
          .isSameAs(second.shared("k", StringBuilder.class, StringBuilder::new));
      Properties core = new Properties();
      core.setProperty("workload", "site.ycsb.workloads.CoreWorkload");  // cannot be made before init: not made
      core.setProperty("table", "kv");
      assertThat(StandaloneRun.context(core).data().keyValueTable()).isEqualTo("kv");
      assertThat(StandaloneRun.context(core).data().roles()).containsExactly(DataRole.KEY_VALUE);
      p.setProperty("workload", "no.such.Workload");
      assertThatThrownBy(() -> StandaloneRun.context(p)).hasMessageContaining("Property 'workload'")
          .hasMessageContaining("no.such.Workload");
    } finally {
      StandaloneRun.forget();
    }
  }
}
