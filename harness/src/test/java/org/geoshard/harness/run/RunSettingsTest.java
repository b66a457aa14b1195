package org.geoshard.harness.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Properties;
import org.geoshard.harness.config.ConfigException;
import org.junit.jupiter.api.Test;

class RunSettingsTest {
  private static Properties props(String... pairs) {
    Properties p = new Properties();
    p.setProperty("workload", "site.ycsb.workloads.CoreWorkload");
    for (int i = 0; i < pairs.length; i += 2) {
      p.setProperty(pairs[i], pairs[i + 1]);
    }
    return p;
  }

  @Test
  void defaultsAreYcsbsWithAFixedSeed() throws ConfigException {
    RunSettings s = RunSettings.fromProperties(Phase.RUN, props("operationcount", "10"), "workloada");
    assertThat(s.threads()).isEqualTo(1);
    assertThat(s.operationCount()).isEqualTo(10);
    assertThat(s.targetOpsPerSecond()).isZero();
    assertThat(s.maxExecutionTime()).isEqualTo(Duration.ZERO);
    assertThat(s.statusInterval()).isEqualTo(Duration.ofSeconds(10));
    assertThat(s.measured()).isTrue();
    assertThat(s.seed()).isEqualTo(RunSettings.DEFAULT_SEED);
    assertThat(s.label()).isEqualTo("workloada");
  }

  @Test
  void countsAreLongs() throws ConfigException {
    RunSettings s = RunSettings.fromProperties(Phase.RUN, props("operationcount", "10000000000"), "x");
    assertThat(s.plannedOperations(0)).isEqualTo(10_000_000_000L);
  }

  @Test
  void operationCountZeroNeedsAMaximumTime() throws ConfigException {
    assertThatThrownBy(() -> RunSettings.fromProperties(Phase.RUN, props("operationcount", "0"), "x"))
        .hasMessageContaining("Nothing to run: property 'operationcount' is 0 and");
    // Not given, it is not quoted as a 0 the user wrote.
    assertThatThrownBy(() -> RunSettings.fromProperties(Phase.RUN, props(), "x"))
        .hasMessageContaining("Nothing to run: property 'operationcount' is not set and");
    RunSettings timed = RunSettings.fromProperties(Phase.RUN, props("operationcount", "0", "maxexecutiontime", "5"), "x");
    assertThat(timed.plannedOperations(0)).isZero();
    assertThat(timed.maxExecutionTime()).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void loadCountFollowsYcsbAndFallsBackToTheWorkload() throws ConfigException {
    assertThat(RunSettings.fromProperties(Phase.LOAD, props("recordcount", "100"), "x").plannedOperations(7)).isEqualTo(100);
    assertThat(RunSettings.fromProperties(Phase.LOAD, props("recordcount", "100", "insertcount", "40", "insertstart", "60"), "x")
        .plannedOperations(7)).isEqualTo(40);
    assertThat(RunSettings.fromProperties(Phase.LOAD, props(), "x").plannedOperations(7)).isEqualTo(7);
  }

  @Test
  void reportsAllBadValuesTogether() {
    assertThatThrownBy(() -> RunSettings.fromProperties(Phase.RUN,
        props("threadcount", "-2", "operationcount", "-1", "measurementtype", "timeseries", "recordcount", "10",
            "insertstart", "5", "insertcount", "10", "maxexecutiontime", "1"), "x"))
        .isInstanceOf(ConfigException.class)
        .satisfies(e -> assertThat(((ConfigException) e).problems()).containsExactly(
            "Property 'threadcount' must be a whole number from 1 to 100000, but is '-2'.",
            "Property 'operationcount' must be a whole number of at least 0, but is '-1'.",
            "Property 'measurementtype' must be hdrhistogram or none (geoshard always records HdrHistograms), but is 'timeseries'.",
            "Properties insertstart (5) + insertcount (10) exceed recordcount (10)."));
  }

  @Test
  void missingWorkloadIsExplained() {
    Properties p = new Properties();
    p.setProperty("operationcount", "1");
    assertThatThrownBy(() -> RunSettings.fromProperties(Phase.RUN, p, "x"))
        .hasMessageContaining("Property 'workload' is not set");
  }

  @Test
  void labelsAreSafeFolderNames() {
    assertThat(RunSettings.sanitizeLabel("geo 3s/../x")).isEqualTo("geo_3s_.._x");
    assertThat(RunSettings.sanitizeLabel("")).isEqualTo("default");
    assertThat(RunSettings.sanitizeLabel("Zürich/東京 run")).isEqualTo("Zurich_run");
    assertThat(RunSettings.sanitizeLabel("東京")).isEqualTo("default");
  }

  @Test
  void theLabelIsKeptAsTypedAndOnlyTheFolderNameIsSafe() throws ConfigException {
    RunSettings s = RunSettings.fromProperties(Phase.RUN, props("operationcount", "1", "results.label", "Zürich/東京 run"), "x");
    assertThat(s.label()).isEqualTo("Zürich/東京 run");
    assertThat(s.folderLabel()).isEqualTo("Zurich_run");
  }

  @Test
  void overLongOrControlCharacterLabelsAreRefused() {
    assertThatThrownBy(() -> RunSettings.fromProperties(Phase.RUN, props("operationcount", "1", "results.label",
        "é".repeat(101)), "x")).hasMessage("Property 'results.label' (-l) is 101 characters long; a label may have at most 100.");
    assertThatThrownBy(() -> RunSettings.fromProperties(Phase.RUN, props("operationcount", "1", "results.label",
        "a\tb"), "x")).hasMessageContaining("holds a control character");
  }

  @Test
  void anOverflowingOperationCountIsOneSentenceNamingItsLimit() {
    assertThatThrownBy(() -> RunSettings.fromProperties(Phase.RUN, props("operationcount", "99999999999999999999"), "x"))
        .isInstanceOf(ConfigException.class)
        .satisfies(e -> assertThat(((ConfigException) e).problems()).containsExactly("Property 'operationcount' must be a"
            + " whole number of at least 0 and at most 9223372036854775807, but is '99999999999999999999'."));
  }
}
