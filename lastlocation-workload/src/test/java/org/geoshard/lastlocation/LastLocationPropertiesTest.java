package org.geoshard.lastlocation;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Set;
import java.util.TreeSet;
import org.geoshard.harness.config.RecordingProperties;
import org.geoshard.harness.config.UnknownProperties;
import org.junit.jupiter.api.Test;

/** The last-location catalog is what its settings reader reads: one source per property name. */
class LastLocationPropertiesTest {
  @Test
  void theCatalogIsWhatTheSettingsReaderReads() {
    assertThat(new TreeSet<>(new LastLocationProperties().names())).isEqualTo(LastLocationProperties.readBySettings());
  }

  @Test
  void everyNameTheSettingsDeclareIsRead() throws IllegalAccessException {
    Set<String> declared = new TreeSet<>();
    for (Field field : LastLocationSettings.class.getFields()) {
      if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
        declared.add((String) field.get(null));
      }
    }
    assertThat(declared).isNotEmpty().allMatch(name -> name.startsWith("ll."));
    assertThat(new LastLocationProperties().names()).containsAll(declared);
  }

  @Test
  void theWorkloadReadsNoLlNameOutsideTheCatalog() throws Exception {
    RecordingProperties p = new RecordingProperties();
    p.setProperty("ll.users", "100");
    p.setProperty("ll.cells", "10");
    p.setProperty("ll.writers", "1");
    p.setProperty("threadcount", "1");
    LastLocationWorkload workload = new LastLocationWorkload();
    workload.init(p);
    workload.initThread(p, 0, 2);
    workload.initThread(p, 1, 2);
    Set<String> names = new LastLocationProperties().names();
    Set<String> known = UnknownProperties.fromClassPath().knownNames();
    Set<String> ownedButUnlisted = new TreeSet<>();
    Set<String> unknown = new TreeSet<>();
    for (String name : p.namesRead()) {
      if (name.startsWith("ll.") && !names.contains(name)) {
        ownedButUnlisted.add(name);
      }
      if (!known.contains(name)) {
        unknown.add(name);
      }
    }
    assertThat(p.namesRead()).contains(LastLocationSettings.USERS, "threadcount", "insertstart", "seed");
    assertThat(ownedButUnlisted).as("ll.* names the workload reads that its catalog lacks").isEmpty();
    assertThat(unknown).as("names the workload reads that no catalog (nor YCSB) knows").isEmpty();
  }
}
