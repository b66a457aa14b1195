package org.geoshard.lastlocation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Properties;
import org.geoshard.harness.api.DataDeclaration;
import org.geoshard.lastlocation.contract.LastLocationContract;
import org.junit.jupiter.api.Test;

/** What the location stream declares of its whole dataset: what a complete load writes, a lower bound after a run. */
class LastLocationDatasetSizeTest {
  private static LastLocationWorkload initialised(String... pairs) throws Exception {
    Properties p = new Properties();
    p.setProperty(LastLocationSettings.USERS, "1000");
    p.setProperty(LastLocationSettings.EVENTS_PER_USER, "3");
    p.setProperty("insertstart", "200");
    p.setProperty("insertcount", "100");
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    LastLocationWorkload workload = new LastLocationWorkload();
    workload.init(p);
    return workload;
  }

  @Test
  void everyUsersFirstEventsAndOneLastKnownLocationEachWhateverPartThisClientLoads() throws Exception {
    LastLocationWorkload workload = initialised();
    assertThat(workload.insertCount()).isEqualTo(100);
    assertThat(workload.datasetSize()).isEqualTo(Map.of(LastLocationContract.HISTORY, 3000L,
        LastLocationContract.LAST_KNOWN, 1000L));
    DataDeclaration declared = DataDeclaration.ofInitialised(workload, new Properties());
    assertThat(declared.expected().lowerBound()).as("the writers append during a run").isTrue();
    assertThat(declared.expected().runOnlyInserts()).isFalse();
  }

  @Test
  void insertOnlyTablesKeepNoLastKnownLocation() throws Exception {
    LastLocationWorkload workload = initialised(LastLocationSettings.WRITE_MODE, "insertonly",
        LastLocationSettings.READ_LKL, "0", LastLocationSettings.READ_NEAR, "0", LastLocationSettings.READ_RANGE, "1");
    assertThat(workload.datasetSize()).isEqualTo(Map.of(LastLocationContract.HISTORY, 3000L));
    // The insert-only run: writers append, readers ask History for what they append; it may start empty.
    assertThat(DataDeclaration.ofInitialised(workload, new Properties()).expected().runOnlyInserts()).isTrue();
  }
}
