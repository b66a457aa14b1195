package org.geoshard.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.geoshard.harness.cli.PropertySources;
import org.geoshard.harness.ramp.RampMode;
import org.geoshard.harness.ramp.RampSettings;
import org.geoshard.lastlocation.LastLocationSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The workload files that reproduce the study and the pilot as they were run (issue 18): each is
 * accepted by every module's property catalog and says what the study or the pilot did.
 */
class WorkloadPresetsTest {
  private static final Path WORKLOADS = Path.of("..", "workloads");

  private static Properties load(String... files) throws Exception {
    return PropertySources.resolveChecked(Arrays.stream(files).map(WORKLOADS::resolve).toList(), List.of());
  }

  @ParameterizedTest
  @ValueSource(strings = {"geo0s", "geo2s", "geo3s", "geo2s-cells", "geo3s-cells"})
  void theGeoScenariosTimeOutAsTheStudyDid(String scenario) throws Exception {
    Properties p = load(scenario);
    MongoSettings mongo = MongoSettings.fromProperties(p);
    RampSettings ramp = RampSettings.fromProperties(p);
    // The study: 500 s to select a server, no limit per request, the run ended at its first exception.
    assertThat(mongo.connection().serverSelectionTimeout(TimeUnit.SECONDS)).isEqualTo(500);
    assertThat(mongo.connection().timeout(TimeUnit.MILLISECONDS)).isEqualTo(3_600_000);
    assertThat(ramp.rule().timeoutUs()).isEqualTo(3_600_000_000L);
    assertThat(ramp.rule().maxErrors()).isZero();
    assertThat(ramp.rule().latencyUs()).isEqualTo(100_000);

    Properties strict = load(scenario, "strict-timeouts");
    assertThat(MongoSettings.fromProperties(strict).connection().serverSelectionTimeout(TimeUnit.SECONDS)).isEqualTo(5);
    assertThat(MongoSettings.fromProperties(strict).connection().timeout(TimeUnit.MILLISECONDS)).isEqualTo(30_000);
    assertThat(RampSettings.fromProperties(strict).rule().timeoutUs()).isEqualTo(10_000_000L);
  }

  @Test
  void theFirstExperimentAddsOneClientEveryThirtySecondsUpToForty() throws Exception {
    RampSettings ramp = RampSettings.fromProperties(load("geo0s", "study-first-experiment"));
    assertThat(ramp.mode()).isEqualTo(RampMode.THREADS);
    assertThat(List.of(ramp.startThreads(), ramp.stepThreads(), (int) ramp.interval().toSeconds(), ramp.maxThreads()))
        .containsExactly(1, 1, 30, 40);
  }

  @Test
  void theInsertOnlyTablesAppendHistoryAndAskOnlyHistory() throws Exception {
    LastLocationSettings ll = LastLocationSettings.fromProperties(load("lastlocation", "lastlocation-insertonly"));
    assertThat(ll.writeMode()).isEqualTo(LastLocationSettings.WriteMode.INSERTONLY);
    assertThat(ll.readRange()).isEqualTo(1.0);
    assertThat(ll.nearQueries()).isFalse();
  }

  @Test
  void thePilotsTopologyPutsLastKnownLocationOnASecondCluster() throws Exception {
    Properties p = load("lastlocation", "lastlocation-pilot-topology");
    MongoLastLocationSettings ll = MongoLastLocationSettings.fromProperties(p);
    assertThat(ll.lklUrl()).isNotNull().isNotEqualTo(MongoSettings.fromProperties(p).connection().url());
  }

  @Test
  void thePilotsSweepAndItsSmallVariant() throws Exception {
    LastLocationSettings pilot = LastLocationSettings.fromProperties(load("lastlocation", "lastlocation-pilot-sweep"));
    assertThat(pilot.users()).isEqualTo(9_000_000);
    assertThat(pilot.sweepRates()).containsExactly(0.0, 400.0, 1000.0, 3000.0, 3500.0, 4000.0);
    LastLocationSettings small = LastLocationSettings.fromProperties(
        load("lastlocation", "lastlocation-pilot-sweep-small"));
    assertThat(small.sweepRates()).isEqualTo(pilot.sweepRates());
    assertThat(small.users()).isEqualTo(90_000);
    // Both fit in their time limit: every rate's step, with room for the start.
    for (String file : List.of("lastlocation-pilot-sweep", "lastlocation-pilot-sweep-small")) {
      Properties p = load("lastlocation", file);
      LastLocationSettings s = LastLocationSettings.fromProperties(p);
      assertThat(Long.parseLong(p.getProperty("maxexecutiontime")))
          .as(file).isGreaterThan(s.sweepRates().size() * s.sweepInterval().toSeconds());
    }
    // With the insert-only tables too.
    assertThat(LastLocationSettings.fromProperties(load("lastlocation", "lastlocation-insertonly",
        "lastlocation-pilot-sweep")).writeMode()).isEqualTo(LastLocationSettings.WriteMode.INSERTONLY);
  }
}
