package org.geoshard.harness.api;

import java.util.Properties;

/**
 * The context of a binding run by plain YCSB, which hands its instances nothing in common: shared
 * objects for the whole JVM (a YCSB client runs one workload per process), never closed, and the
 * declaration of the workload YCSB's {@code workload} property names. The only JVM-wide state left, and
 * only for YCSB (and for tests that make binding instances themselves).
 */
public final class StandaloneRun {
  private static final Object LOCK = new Object();
  private static SharedObjects shared;

  private StandaloneRun() {
  }

  /** A context with the JVM's shared objects and the declaration these properties make. */
  public static RunContext context(Properties properties) {
    DataDeclaration data = declaration(properties);
    SharedObjects objects;
    synchronized (LOCK) {
      if (shared == null) {
        shared = new SharedObjects(DataDeclaration.keyValue());
      }
      objects = shared;
    }
    return new RunContext() {
      @Override
      public DataDeclaration data() {
        return data;
      }

      @Override
      public <T> T shared(Object key, Class<T> type, java.util.function.Supplier<? extends T> create) {
        return objects.shared(key, type, create);
      }

      @Override
      public RunContext process() {
        return objects;  // the JVM's: plain YCSB runs one workload per process
      }
    };
  }

  /**
   * The declaration of the workload the properties name: of an instance that is not initialised when
   * its class declares data (a workload such as YCSB's CoreWorkload cannot even be made before
   * {@code init}, and declares nothing), else YCSB's key-value records.
   */
  static DataDeclaration declaration(Properties properties) {
    String className = properties.getProperty("workload");
    Object workload = null;
    if (className != null && !className.isBlank()) {
      try {
        Class<?> type = Class.forName(className.trim());
        if (DeclaresData.class.isAssignableFrom(type)) {
          workload = type.getDeclaredConstructor().newInstance();
        }
      } catch (ReflectiveOperationException | LinkageError e) {
        throw new IllegalStateException("Property 'workload': cannot instantiate " + className + ": " + e, e);
      }
    }
    return DataDeclaration.of(workload, properties);
  }

  /** Closes and forgets the JVM's shared objects: for tests of a binding's fallback path only. */
  public static void forget() {
    SharedObjects closing;
    synchronized (LOCK) {
      closing = shared;
      shared = null;
    }
    if (closing != null) {
      closing.close();
    }
  }
}
