package org.geoshard.harness.binding;

import java.lang.reflect.InvocationTargetException;
import java.util.Properties;
import site.ycsb.DB;

/** A resolved binding: its name for people and run folders, and the class to instantiate per thread. */
public record Binding(String name, Class<? extends DB> type) {

  /** A new instance with the run's properties set, as YCSB's {@code DBFactory} does. */
  public DB newInstance(Properties properties) {
    try {
      DB db = type.getDeclaredConstructor().newInstance();
      db.setProperties(properties);
      return db;
    } catch (InvocationTargetException e) {
      throw new IllegalStateException("Binding " + type.getName() + " failed in its constructor: " + e.getCause(), e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Binding " + type.getName() + " needs a public no-argument constructor.", e);
    }
  }
}
