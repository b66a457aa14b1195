package org.geoshard.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.geoshard.harness.binding.Binding;
import org.geoshard.harness.binding.NoopDB;
import org.geoshard.harness.config.RecordingProperties;
import org.geoshard.harness.config.UnknownProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The harness's catalog is what its settings readers read: one source per property name. */
class HarnessPropertiesTest {
  @TempDir
  Path dir;

  @Test
  void theCatalogIsWhatTheSettingsReadersRead() {
    Set<String> expected = new TreeSet<>(HarnessProperties.readBySettings());
    expected.addAll(HarnessProperties.SET_BY_HARNESS);
    assertThat(new TreeSet<>(new HarnessProperties().names())).isEqualTo(expected);
    // every reader is reached through RunSettings: the ramp's, the tracer's, the samplers'
    assertThat(expected).contains(RunSettings.WORKLOAD, RunSettings.SEED, RunSettings.GIVE_UP,
        org.geoshard.harness.ramp.RampSettings.SLA_RULE, org.geoshard.harness.ramp.RampSettings.STATS_WARMUP,
        org.geoshard.harness.observe.IoTraceSettings.TRACE_IO_DROP_CACHES,
        org.geoshard.harness.observe.ExplainSettings.WINDOW, org.geoshard.harness.observe.ObserveSettings.NODE_EXPORTER);
  }

  @Test
  void everyNameTheSettingsDeclareIsInTheCatalog() throws IllegalAccessException {
    Set<String> declared = new TreeSet<>();
    for (Class<?> type : new Class<?>[] {RunSettings.class, org.geoshard.harness.ramp.RampSettings.class,
        org.geoshard.harness.observe.IoTraceSettings.class, org.geoshard.harness.observe.ExplainSettings.class,
        org.geoshard.harness.observe.ObserveSettings.class, org.geoshard.harness.config.YcsbCounts.class}) {
      for (java.lang.reflect.Field field : type.getFields()) {
        if (java.lang.reflect.Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
          declared.add((String) field.get(null));
        }
      }
    }
    assertThat(declared).hasSizeGreaterThan(35);
    assertThat(new HarnessProperties().names()).containsAll(declared);
  }

  @Test
  void everyNameAPhaseReadsUnderTheHarnessPrefixesIsInTheCatalog() throws Exception {
    Set<String> names = new HarnessProperties().names();
    Set<String> prefixes = new HarnessProperties().prefixes();
    Set<String> known = UnknownProperties.fromClassPath().knownNames();
    for (Phase phase : Phase.values()) {
      RecordingProperties p = new RecordingProperties(RunnerTest.workloada("operationcount", "200", "threadcount", "2",
          "results.dir", dir.resolve(phase.name()).toString()));
      RunSettings settings = RunSettings.fromProperties(phase, p, "test");
      new Runner(settings, p, new Binding("test", NoopDB.class), dir).execute();
      Set<String> ownedButUnlisted = new TreeSet<>();
      Set<String> unknown = new TreeSet<>();
      for (String name : p.namesRead()) {
        if (prefixes.stream().anyMatch(name::startsWith) && !names.contains(name)) {
          ownedButUnlisted.add(name);
        }
        if (!known.contains(name)) {
          unknown.add(name);
        }
      }
      assertThat(ownedButUnlisted).as("%s: names under the harness's prefixes read but not in its catalog", phase)
          .isEmpty();
      assertThat(unknown).as("%s: names read that no catalog (nor YCSB) knows", phase).isEmpty();
    }
  }

  @Test
  void theNamesTheHarnessSetsAreKnown() {
    Properties p = new Properties();
    p.setProperty(RunSettings.CLIENT_THREADS, "8");
    p.setProperty(RunSettings.DO_TRANSACTIONS, "true");
    assertThat(UnknownProperties.fromClassPath().warnings(p)).isEmpty();
    assertThat(new HarnessProperties().names()).containsAll(HarnessProperties.SET_BY_HARNESS);
  }
}
