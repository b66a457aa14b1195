package org.geoshard.harness.config;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * YCSB 0.17.0's own property names, read from the constants of its client, core workload and
 * measurements (not copied by hand, so they stay those of the YCSB on the class path). YCSB bindings
 * and workloads read these names; geoshard knows them so that a typo of one can be pointed out.
 */
final class YcsbPropertyNames {
  private static final String[] CLASSES = {"site.ycsb.Client", "site.ycsb.workloads.CoreWorkload",
      "site.ycsb.measurements.Measurements"};
  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_.]*");

  private YcsbPropertyNames() {
  }

  static Set<String> all() {
    Set<String> names = new TreeSet<>();
    for (String className : CLASSES) {
      Class<?> type;
      try {
        type = Class.forName(className, false, YcsbPropertyNames.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        continue;  // not on this class path: nothing to know
      }
      for (Field field : type.getFields()) {
        int modifiers = field.getModifiers();
        if (Modifier.isStatic(modifiers) && Modifier.isFinal(modifiers) && field.getType() == String.class
            && !field.getName().endsWith("DEFAULT")) {
          try {
            String value = (String) field.get(null);
            if (value != null && NAME.matcher(value).matches()) {
              names.add(value);
            }
          } catch (IllegalAccessException e) {
            // a public field of a public class: cannot happen; skip it
          }
        }
      }
    }
    return names;
  }
}
