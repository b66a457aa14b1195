package org.geoshard.harness.output;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class RunIdentityTest {
  @Test
  void theScenarioLeavesOutWhatMayDifferBetweenClientsAndRepetitions() {
    Properties p = new Properties();
    p.setProperty("workload", "site.ycsb.workloads.CoreWorkload");
    p.setProperty("dotransactions", "true");
    p.setProperty("geo.scale", "0.1");
    p.setProperty("threadcount", "8");
    for (String varying : new String[] {"results.dir", "results.label", "status.interval", "observe.interval",
        "trace.io", "seed", "insertstart", "insertcount", "clientthreads", "mongodb.url", "postgis.host",
        "mongodb.hosts", "postgis.password", "postgis.user"}) {
      p.setProperty(varying, "x");
    }
    p.setProperty("postgis.secret.token", "hunter2");

    RunIdentity identity = RunIdentity.of("run", "noop", "site.ycsb.workloads.CoreWorkload", p);

    assertThat(identity.scenario()).containsOnlyKeys("workload", "dotransactions", "geo.scale", "threadcount",
        "postgis.secret.token");
    assertThat(identity.scenario().get("dotransactions")).isEqualTo("true");
    assertThat(identity.scenario().get("postgis.secret.token")).isEqualTo("****");
    assertThat(identity.asMap()).containsEntry("command", "run").containsEntry("binding", "noop")
        .containsEntry("key", identity.key());
  }

  @Test
  void aSecretIsMaskedInTheScenario() {
    Properties p = new Properties();
    p.setProperty("postgis.password.file.secret", "hunter2");
    p.setProperty("mongodb.options", "mongodb://u:hunter2@h/");
    RunIdentity identity = RunIdentity.of("run", "noop", "W", p);
    assertThat(identity.scenario().values()).noneMatch(v -> v.contains("hunter2"));
  }

  @Test
  void theKeyIsTheSha256OfTheCanonicalJsonAsPythonWritesIt() {
    TreeMap<String, String> scenario = new TreeMap<>();
    scenario.put("readproportion", "1");
    scenario.put("geo.scale", "0.1");
    scenario.put("dotransactions", "true");
    scenario.put("geo.dataset", "Zürich");
    // python3: json.dumps(o, sort_keys=True, separators=(",", ":"), ensure_ascii=False), then hashlib.sha256
    assertThat(RunIdentity.keyOf("run", "noop", "site.ycsb.workloads.CoreWorkload", scenario))
        .isEqualTo("c1584d3d10577e9b9cd5732db85979abccf88b3e35ce5b80efafd1ea6fd1aec8");
    // Any change to the scenario changes the key.
    scenario.put("geo.scale", "0.01");
    assertThat(RunIdentity.keyOf("run", "noop", "site.ycsb.workloads.CoreWorkload", scenario)).isNotEqualTo("c1584d3d10577e9b9cd5732db85979abccf88b3e35ce5b80efafd1ea6fd1aec8");
  }
}
