package org.geoshard.harness.observe;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;
import org.geoshard.harness.config.PropertyReader;
import org.junit.jupiter.api.Test;

class IoTraceSettingsTest {
  private static PropertyReader reader(String... pairs) {
    Properties p = new Properties();
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return new PropertyReader(p);
  }

  @Test
  void offUnlessAsked() {
    PropertyReader in = reader();
    IoTraceSettings s = IoTraceSettings.read(in);
    assertThat(s.stages()).isEmpty();
    assertThat(s.command()).isEqualTo("bpftrace");
    assertThat(s.dropCaches()).isFalse();
    assertThat(s.probes()).isEmpty();
    assertThat(in.problems()).isEmpty();
  }

  @Test
  void theProbesCanBeForcedAndAWrongSetIsNamed() {
    assertThat(IoTraceSettings.read(reader("trace.io.probes", "block_rq")).probes()).contains(BlockProbes.BLOCK_RQ);
    assertThat(IoTraceSettings.read(reader("trace.io.probes", "auto")).probes()).isEmpty();
    PropertyReader in = reader("trace.io.probes", "rq");
    IoTraceSettings.read(in);
    assertThat(in.problems()).singleElement().asString().contains("'trace.io.probes'", "'rq'", "block_io", "block_rq");
  }

  @Test
  void readsStagesAndProcessNames() {
    PropertyReader in = reader("trace.io", "after-load, run", "trace.io.processes", "mongod,mongos",
        "trace.io.dropcaches", "true");
    IoTraceSettings s = IoTraceSettings.read(in);
    assertThat(s.stages()).containsExactlyInAnyOrder(Stage.AFTER_LOAD, Stage.RUN);
    assertThat(s.traces(Stage.LOAD)).isFalse();
    assertThat(s.processNames()).containsExactly("mongod", "mongos");
    assertThat(s.dropCaches()).isTrue();
    assertThat(in.problems()).isEmpty();
  }

  @Test
  void namesTheWrongStageAndProcessInOneSentenceEach() {
    PropertyReader in = reader("trace.io", "load,index", "trace.io.processes", "mongo d");
    IoTraceSettings.read(in);
    assertThat(in.problems()).hasSize(2);
    assertThat(in.problems().get(0)).contains("'trace.io'", "'index'", "load, after-load and run");
    assertThat(in.problems().get(1)).contains("'trace.io.processes'", "'mongo d'");
  }
}
