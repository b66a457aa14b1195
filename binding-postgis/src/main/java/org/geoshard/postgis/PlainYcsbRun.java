package org.geoshard.postgis;

import java.util.Properties;
import java.util.function.Supplier;
import org.geoshard.harness.api.DataDeclaration;
import org.geoshard.harness.api.DeclaresData;
import org.geoshard.harness.api.RunContext;
import org.geoshard.harness.api.StandaloneRun;

/**
 * The context of an instance that joined no run (plain YCSB, or a test that makes instances itself):
 * {@link StandaloneRun}'s. {@code StandaloneRun} makes the workload YCSB's {@code workload} names to
 * ask for its roles, and a workload that declares none may not be made before its {@code init}
 * (YCSB's {@code CoreWorkload} reads its properties in its constructor): such a workload loads YCSB's
 * key-value records, in {@code table}, as {@link DataDeclaration#of} says of a workload that declares
 * nothing. The JVM's shared objects are {@code StandaloneRun}'s either way.
 */
final class PlainYcsbRun {
  private PlainYcsbRun() {
  }

  static RunContext context(Properties properties) {
    String workload = properties.getProperty("workload");
    if (workload == null || workload.isBlank() || declaresData(workload.trim())) {
      return StandaloneRun.context(properties);
    }
    Properties declaringNothing = new Properties();
    properties.stringPropertyNames().forEach(name -> declaringNothing.setProperty(name, properties.getProperty(name)));
    declaringNothing.remove("workload");
    RunContext jvm = StandaloneRun.context(declaringNothing);
    DataDeclaration data = DataDeclaration.of(null, properties);
    return new RunContext() {
      @Override
      public DataDeclaration data() {
        return data;
      }

      @Override
      public <T> T shared(Object key, Class<T> type, Supplier<? extends T> create) {
        return jvm.shared(key, type, create);
      }
    };
  }

  /** Whether the named class declares its data; a class that cannot be loaded is StandaloneRun's to say. */
  private static boolean declaresData(String className) {
    try {
      return DeclaresData.class.isAssignableFrom(Class.forName(className));
    } catch (ClassNotFoundException | LinkageError e) {
      return true;
    }
  }
}
