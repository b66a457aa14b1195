package org.geoshard.postgis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Properties;
import java.util.Set;
import org.geoshard.geo.GeoWorkload;
import org.geoshard.geo.contract.GeoContract;
import org.geoshard.harness.api.DataRole;
import org.geoshard.harness.api.RunContext;
import org.junit.jupiter.api.Test;
import site.ycsb.workloads.CoreWorkload;

class PlainYcsbRunTest {
  private static Properties of(String... pairs) {
    Properties p = new Properties();
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return p;
  }

  @Test
  void ycsbsCoreWorkloadWhichCannotBeMadeBeforeItsInitLoadsKeyValueRecordsInItsTable() {
    RunContext run = PlainYcsbRun.context(of("workload", CoreWorkload.class.getName(), "table", "kv_plain",
        "insertstart", "10", "insertcount", "5"));
    assertThat(run.data().roles()).isEqualTo(Set.of(DataRole.KEY_VALUE));
    assertThat(run.data().keyValueTable()).isEqualTo("kv_plain");
    assertThat(run.data().insertStart()).isEqualTo(10);
    assertThat(run.data().insertCount()).isEqualTo(5L);
  }

  @Test
  void aWorkloadThatDeclaresItsDataIsAskedForIt() {
    RunContext run = PlainYcsbRun.context(of("workload", GeoWorkload.class.getName(), "table", "kv_plain"));
    assertThat(run.data().roles()).contains(GeoContract.RESTAURANTS).doesNotContain(DataRole.KEY_VALUE);
  }

  @Test
  void everyInstanceOfTheJvmSharesTheSameObjects() {
    String key = PlainYcsbRunTest.class.getName() + ".shared";
    Object one = PlainYcsbRun.context(of("workload", CoreWorkload.class.getName())).shared(key, Object.class, Object::new);
    Object two = PlainYcsbRun.context(of("workload", GeoWorkload.class.getName())).shared(key, Object.class, Object::new);
    Object three = PlainYcsbRun.context(new Properties()).shared(key, Object.class, Object::new);
    assertThat(two).isSameAs(one);
    assertThat(three).isSameAs(one);
  }

  @Test
  void aWorkloadClassThatDoesNotExistIsSaid() {
    assertThatThrownBy(() -> PlainYcsbRun.context(of("workload", "org.example.NoSuchWorkload")))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("org.example.NoSuchWorkload");
  }
}
