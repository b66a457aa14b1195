package org.geoshard.geo;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Set;
import java.util.TreeSet;
import org.geoshard.geo.cells.CellSettings;
import org.geoshard.harness.config.RecordingProperties;
import org.geoshard.harness.config.UnknownProperties;
import org.junit.jupiter.api.Test;

/** The geo catalog is what its settings readers read: one source per property name. */
class GeoPropertiesTest {
  @Test
  void theCatalogIsWhatTheSettingsReadersRead() {
    assertThat(new TreeSet<>(new GeoProperties().names())).isEqualTo(GeoProperties.readBySettings());
  }

  @Test
  void everyNameTheSettingsDeclareIsRead() throws IllegalAccessException {
    Set<String> declared = new TreeSet<>();
    for (Class<?> type : new Class<?>[] {GeoSettings.class, CellSettings.class}) {
      for (Field field : type.getFields()) {
        if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
          declared.add((String) field.get(null));
        }
      }
    }
    assertThat(declared).isNotEmpty().allMatch(name -> name.startsWith("geo."));
    assertThat(new GeoProperties().names()).containsAll(declared);
  }

  @Test
  void theWorkloadReadsNoGeoNameOutsideTheCatalog() throws Exception {
    RecordingProperties p = new RecordingProperties();
    p.setProperty("geo.scale", "0.0001");
    p.setProperty("threadcount", "2");
    GeoWorkload workload = new GeoWorkload();
    workload.init(p);
    workload.initThread(p, 0, 2);
    workload.initThread(p, 1, 2);
    Set<String> names = new GeoProperties().names();
    Set<String> known = UnknownProperties.fromClassPath().knownNames();
    Set<String> ownedButUnlisted = new TreeSet<>();
    Set<String> unknown = new TreeSet<>();
    for (String name : p.namesRead()) {
      if (name.startsWith("geo.") && !names.contains(name)) {
        ownedButUnlisted.add(name);
      }
      if (!known.contains(name)) {
        unknown.add(name);
      }
    }
    assertThat(p.namesRead()).contains(GeoSettings.SCALE, "insertstart", "insertcount", "seed");
    assertThat(ownedButUnlisted).as("geo.* names the workload reads that its catalog lacks").isEmpty();
    assertThat(unknown).as("names the workload reads that no catalog (nor YCSB) knows").isEmpty();
  }
}
