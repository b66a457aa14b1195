package org.geoshard.harness.binding;

import org.geoshard.harness.api.JoinsRun;
import org.geoshard.harness.api.RunContext;

import java.lang.reflect.InvocationTargetException;
import java.util.Properties;
import site.ycsb.DB;

/** A resolved binding: its name for people and run folders, and the class to instantiate per thread. */
public record Binding(String name, Class<? extends DB> type) {

  /**
   * A new instance with the run's properties set, as YCSB's {@code DBFactory} does, that has joined no
   * run (a binding that shares objects falls back to {@link org.geoshard.harness.api.StandaloneRun}).
   */
  public DB newInstance(Properties properties) {
    return newInstance(properties, null);
  }

  /** A new instance with the run's properties set that has joined the phase's context (when not null). */
  public DB newInstance(Properties properties, RunContext context) {
    try {
      DB db = type.getDeclaredConstructor().newInstance();
      db.setProperties(properties);
      if (context != null && db instanceof JoinsRun joins) {
        joins.joinRun(context);
      }
      return db;
    } catch (InvocationTargetException e) {
      throw new IllegalStateException("Binding " + type.getName() + " failed in its constructor: " + e.getCause(), e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Binding " + type.getName() + " needs a public no-argument constructor.", e);
    }
  }
}
