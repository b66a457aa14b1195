package org.geoshard.harness.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.config.PropertyReader;
import site.ycsb.Workload;
import site.ycsb.WorkloadException;
import site.ycsb.measurements.Measurements;
import site.ycsb.workloads.CoreWorkload;

/** Creates and initialises the workload, turning its failures into messages a user can act on. */
final class WorkloadLoader {
  private WorkloadLoader() {
  }

  static Workload initialise(String className, Properties properties) throws ConfigException {
    Class<?> type;
    try {
      type = Class.forName(className, true, WorkloadLoader.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      throw new ConfigException("Property 'workload': class '" + className + "' is not on the class path.");
    }
    if (!Workload.class.isAssignableFrom(type)) {
      throw new ConfigException("Property 'workload': " + className + " is not a site.ycsb.Workload.");
    }
    if (CoreWorkload.class.isAssignableFrom(type)) {
      guardCoreWorkload(properties);
    }
    // CoreWorkload reports READ-MODIFY-WRITE through YCSB's global Measurements, which must exist.
    Properties forYcsb = new Properties();
    forYcsb.putAll(properties);
    forYcsb.setProperty("measurementtype", "hdrhistogram");
    forYcsb.setProperty("measurement.interval", "op");
    Measurements.setProperties(forYcsb);
    Workload workload;
    try {
      workload = type.asSubclass(Workload.class).getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new ConfigException("Property 'workload': " + className + " needs a public no-argument constructor.");
    }
    try {
      workload.init(properties);
    } catch (WorkloadException | RuntimeException e) {
      String message = e.getMessage() == null ? e.toString() : e.getMessage();
      throw new ConfigException("Workload " + type.getSimpleName() + " refused its properties: " + message);
    }
    return workload;
  }

  /** YCSB 0.17.0's CoreWorkload calls System.exit on these; refuse them first with a clear message. */
  private static void guardCoreWorkload(Properties properties) throws ConfigException {
    PropertyReader in = new PropertyReader(properties);
    List<String> problems = new ArrayList<>();
    if (in.bool("dataintegrity", false) && !"constant".equals(in.string("fieldlengthdistribution", "constant"))) {
      problems.add("Property 'dataintegrity=true' needs 'fieldlengthdistribution=constant'.");
    }
    if (in.isSet("insertcount") && in.isSet("recordcount")) {
      long start = in.longAtLeast("insertstart", 0, 0);
      long count = in.longAtLeast("insertcount", 0, 0);
      long records = in.longAtLeast("recordcount", 0, 0);
      if (start + count > records) {
        problems.add("Properties insertstart + insertcount must not exceed recordcount.");
      }
    }
    problems.addAll(in.problems());
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
  }
}
