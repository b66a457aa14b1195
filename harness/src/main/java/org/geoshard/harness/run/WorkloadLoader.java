package org.geoshard.harness.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.geoshard.harness.api.DataDeclaration;
import org.geoshard.harness.api.DeclaresData;
import org.geoshard.harness.config.ConfigException;
import org.geoshard.harness.config.PropertyReader;
import org.geoshard.harness.config.YcsbCounts;
import site.ycsb.Workload;
import site.ycsb.WorkloadException;
import site.ycsb.measurements.Measurements;
import site.ycsb.workloads.CoreWorkload;

/** Creates and initialises the workload, turning its failures into messages a user can act on. */
public final class WorkloadLoader {
  private WorkloadLoader() {
  }

  /**
   * The declaration of the workload the properties name ({@code workload}), from an instance that is
   * not initialised (what {@code bin/ycsb prepare} prepares, without loading a workload); YCSB's
   * key-value records when none is named.
   */
  public static DataDeclaration declaration(Properties properties) throws ConfigException {
    String className = properties.getProperty(RunSettings.WORKLOAD);
    if (className == null || className.isBlank()) {
      return DataDeclaration.of(null, properties);
    }
    Class<? extends Workload> type = workloadClass(className.trim());
    return DataDeclaration.of(DeclaresData.class.isAssignableFrom(type) ? instance(type, className) : null, properties);
  }

  /**
   * The declaration of the workload the properties name, initialised with them, so that it says the
   * size of its whole dataset ({@link DataDeclaration#ofInitialised}): what {@code bin/ycsb preflight}
   * compares the server's counts with. YCSB's key-value records when no workload is named.
   *
   * @throws ConfigException the workload refuses its properties
   */
  public static DataDeclaration initialisedDeclaration(Properties properties) throws ConfigException {
    String className = properties.getProperty(RunSettings.WORKLOAD);
    if (className == null || className.isBlank()) {
      return DataDeclaration.of(null, properties);
    }
    return DataDeclaration.ofInitialised(initialise(className.trim(), properties), properties);
  }

  static Workload initialise(String className, Properties properties) throws ConfigException {
    Class<? extends Workload> type = workloadClass(className);
    if (CoreWorkload.class.isAssignableFrom(type)) {
      guardCoreWorkload(properties);
    }
    // CoreWorkload reports READ-MODIFY-WRITE through YCSB's global Measurements, which must exist.
    Properties forYcsb = new Properties();
    forYcsb.putAll(properties);
    forYcsb.setProperty("measurementtype", "hdrhistogram");
    forYcsb.setProperty("measurement.interval", "op");
    Measurements.setProperties(forYcsb);
    Workload workload = instance(type, className);
    try {
      workload.init(properties);
    } catch (WorkloadException | RuntimeException e) {
      String message = e.getMessage() == null ? e.toString() : e.getMessage();
      throw new ConfigException("Workload " + type.getSimpleName() + " refused its properties: " + message);
    }
    return workload;
  }

  private static Class<? extends Workload> workloadClass(String className) throws ConfigException {
    Class<?> type;
    try {
      type = Class.forName(className, true, WorkloadLoader.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      throw new ConfigException("Property 'workload': class '" + className + "' is not on the class path.");
    }
    if (!Workload.class.isAssignableFrom(type)) {
      throw new ConfigException("Property 'workload': " + className + " is not a site.ycsb.Workload.");
    }
    return type.asSubclass(Workload.class);
  }

  private static Workload instance(Class<? extends Workload> type, String className) throws ConfigException {
    try {
      return type.getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new ConfigException("Property 'workload': " + className + " needs a public no-argument constructor.");
    }
  }

  /**
   * YCSB 0.17.0's CoreWorkload calls System.exit on some of these and never chooses a key with others;
   * refuse them first with a clear message and the numbers.
   */
  private static void guardCoreWorkload(Properties properties) throws ConfigException {
    // dataintegrity and fieldlengthdistribution are CoreWorkload's own names (YCSB's catalog, not the harness's)
    PropertyReader in = new PropertyReader(properties);
    List<String> problems = new ArrayList<>();
    if (in.bool("dataintegrity", false) && !"constant".equals(in.string("fieldlengthdistribution", "constant"))) {
      problems.add("Property 'dataintegrity=true' needs 'fieldlengthdistribution=constant'.");
    }
    YcsbCounts counts;
    try {
      counts = YcsbCounts.fromProperties(properties);
    } catch (ConfigException e) {
      problems.addAll(in.problems());
      problems.addAll(e.problems());
      throw new ConfigException(problems);
    }
    String keyRange = counts.coreWorkloadKeyRangeProblem();
    if (keyRange != null) {
      problems.add(keyRange);
    }
    problems.addAll(in.problems());
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
  }
}
