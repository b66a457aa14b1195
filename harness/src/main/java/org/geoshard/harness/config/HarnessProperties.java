package org.geoshard.harness.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.geoshard.harness.observe.ExplainSettings;
import org.geoshard.harness.observe.IoTraceSettings;
import org.geoshard.harness.observe.ObserveSettings;
import org.geoshard.harness.ramp.RampSettings;
import org.geoshard.harness.run.RunSettings;

/** The property names the harness reads, and the prefixes it owns. */
public final class HarnessProperties implements PropertyCatalog {
  @Override
  public Set<String> prefixes() {
    return Set.of("results.", "stats.", "ramp.", "sla.", "status.", "giveup.", "trace.", "observe.");
  }

  @Override
  public Set<String> names() {
    return Set.of(RunSettings.WORKLOAD, RunSettings.THREAD_COUNT, RunSettings.OPERATION_COUNT,
        RunSettings.RECORD_COUNT, RunSettings.INSERT_START, RunSettings.INSERT_COUNT, RunSettings.TARGET,
        RunSettings.MAX_EXECUTION_TIME, RunSettings.MEASUREMENT_TYPE, RunSettings.MEASUREMENT_INTERVAL,
        RunSettings.STATUS_INTERVAL, RunSettings.GIVE_UP, RunSettings.SEED, RunSettings.RESULTS_DIR,
        RunSettings.RESULTS_LABEL, RunSettings.DO_TRANSACTIONS,
        RampSettings.MODE, RampSettings.START, RampSettings.STEP, RampSettings.INTERVAL, RampSettings.MAX_THREADS,
        RampSettings.RATE_START, RampSettings.RATE_STEP, RampSettings.RATE_MAX, RampSettings.RATE_THREADS,
        RampSettings.SLA_PERCENTILE, RampSettings.SLA_LATENCY_MS, RampSettings.SLA_TIMEOUT_MS, RampSettings.SLA_MAX_ERRORS,
        RampSettings.SLA_PER_OPERATION, RampSettings.SLA_RULE, RampSettings.STATS_WARMUP, RunSettings.CLIENT_THREADS,
        IoTraceSettings.TRACE_IO, IoTraceSettings.TRACE_IO_PROCESSES, IoTraceSettings.TRACE_IO_BPFTRACE,
        IoTraceSettings.TRACE_IO_DROP_CACHES,
        ExplainSettings.SAMPLES, ExplainSettings.WINDOW,
        ObserveSettings.INTERVAL, ObserveSettings.NODE_EXPORTER);
  }

  /** Every property, whoever reads it: a URL whose password would be split at the wrong '@'. */
  @Override
  public List<String> problems(Properties properties) {
    List<String> problems = new ArrayList<>();
    for (String name : new TreeSet<>(properties.stringPropertyNames())) {
      String value = properties.getProperty(name);
      if (Secrets.hasUnencodedPassword(value)) {
        problems.add("Property '" + name + "': the password in " + Secrets.maskText(value) + " holds an unencoded '@';"
            + " percent-encode it ('@' is %40, ':' is %3A, '/' is %2F).");
      }
    }
    return problems;
  }
}
