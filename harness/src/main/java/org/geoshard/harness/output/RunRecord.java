package org.geoshard.harness.output;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.geoshard.harness.api.Secrets;

/**
 * The content of {@code run.json}: what ran, with which effective properties (secrets masked), on
 * which host and versions, when, and why it stopped. Fields are only ever added, never renamed.
 */
public final class RunRecord {
  /** The field of a run's unique id (a random UUID written as the phase is created): a run counts once. */
  public static final String RUN_UUID = "runUuid";
  private final Map<String, Object> fields = new LinkedHashMap<>();
  private final List<Map<String, Object>> preparation = new ArrayList<>();

  public RunRecord(String command, String bindingName, String bindingClass, String workloadClass, String label,
      Properties effective) {
    fields.put("command", command);
    fields.put("binding", Map.of("name", bindingName, "class", bindingClass));
    fields.put("workload", workloadClass);
    fields.put("label", label);
    fields.put("status", "running");
    fields.put("versions", versions());
    fields.put("host", hostFacts());
    fields.put("properties", Secrets.masked(effective));
    // Written once, as the phase starts: what merge and report compare (never renamed later).
    fields.put("identity", RunIdentity.of(command, bindingName, workloadClass, effective).asMap());
  }

  public synchronized RunRecord put(String name, Object value) {
    fields.put(name, value);
    return this;
  }

  public synchronized RunRecord time(String name, Instant instant) {
    fields.put(name, instant.toString());
    return this;
  }

  /** Adds a timed preparation step (creating an index, sharding a collection, ...). */
  public synchronized void preparationStep(String step, long millis, Map<String, ?> details) {
    Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("step", step);
    entry.put("millis", millis);
    entry.putAll(details);
    preparation.add(entry);
    fields.put("preparation", preparation);
  }

  public synchronized Map<String, Object> asMap() {
    return new LinkedHashMap<>(fields);
  }

  static Map<String, Object> versions() {
    Map<String, Object> versions = new LinkedHashMap<>();
    Properties built = new Properties();
    try (InputStream in = RunRecord.class.getResourceAsStream("/org/geoshard/harness/version.properties")) {
      if (in != null) {
        built.load(in);
      }
    } catch (IOException e) {
      // Versions are informative; a missing file must not stop a run.
    }
    versions.put("geoshard", built.getProperty("geoshard.version", "unknown"));
    versions.put("gitCommit", System.getProperty("geoshard.git.commit", "unknown"));
    versions.put("ycsbCore", built.getProperty("ycsb.version", "unknown"));
    versions.put("hdrHistogram", built.getProperty("hdrhistogram.version", "unknown"));
    versions.put("java", System.getProperty("java.runtime.version", System.getProperty("java.version")));
    versions.put("javaVendor", System.getProperty("java.vendor"));
    return versions;
  }

  static Map<String, Object> hostFacts() {
    Map<String, Object> host = new LinkedHashMap<>();
    try {
      host.put("name", InetAddress.getLocalHost().getHostName());
    } catch (IOException e) {
      host.put("name", "unknown");
    }
    host.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
    host.put("arch", System.getProperty("os.arch"));
    host.put("cores", Runtime.getRuntime().availableProcessors());
    host.put("maxHeapBytes", Runtime.getRuntime().maxMemory());
    if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
      host.put("memoryBytes", os.getTotalMemorySize());
    }
    host.put("jvmArguments", ManagementFactory.getRuntimeMXBean().getInputArguments().stream().map(Secrets::maskText).toList());
    return host;
  }
}
