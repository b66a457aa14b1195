package org.geoshard.mongodb.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.Test;
import site.ycsb.measurements.Measurements;
import site.ycsb.workloads.CoreWorkload;

class YcsbKeysTest {
  /** CoreWorkload's own naming, reached through a subclass (buildKeyName is protected). */
  private static final class Naming extends CoreWorkload {
    String key(long record) {
      return buildKeyName(record);
    }
  }

  @Test
  void keysAreNamedAsCoreWorkloadLoadsThem() throws Exception {
    Properties p = org.geoshard.harness.cli.BenchCommand.workloadc(100);
    Measurements.setProperties(p);  // CoreWorkload's constructor reads YCSB's global measurements
    Naming naming = new Naming();
    naming.init(p);
    for (long record = 0; record < 100; record++) {
      assertThat(YcsbKeys.name(record)).as("record %d", record).isEqualTo(naming.key(record));
    }
  }

  @Test
  void keysAreDrawnFromTheLoadedRecordsOnly() {
    Set<String> loaded = new HashSet<>();
    for (long record = 0; record < 50; record++) {
      loaded.add(YcsbKeys.name(record));
    }
    YcsbKeys keys = new YcsbKeys(50);
    for (int i = 0; i < 5_000; i++) {
      assertThat(loaded).contains(keys.next());
    }
  }
}
