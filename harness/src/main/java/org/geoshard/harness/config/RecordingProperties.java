package org.geoshard.harness.config;

import java.util.Collections;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * Properties that remember every name asked for, so that a module's catalog can be made from (or
 * checked against) what its {@code fromProperties} really reads: one source per property name.
 */
public final class RecordingProperties extends Properties {
  private static final long serialVersionUID = 1L;
  private final Set<String> read = new ConcurrentSkipListSet<>();

  public RecordingProperties() {
  }

  /** Starts with a copy of the given values (asking for them is recorded, copying is not). */
  public RecordingProperties(Properties values) {
    for (String name : values.stringPropertyNames()) {
      super.setProperty(name, values.getProperty(name));
    }
  }

  @Override
  public String getProperty(String key) {
    read.add(key);
    return super.getProperty(key);
  }

  @Override
  public String getProperty(String key, String defaultValue) {
    read.add(key);
    return super.getProperty(key, defaultValue);
  }

  /** The names asked for so far, sorted. */
  public Set<String> namesRead() {
    return Collections.unmodifiableSet(read);
  }

  /**
   * The names a settings reader asks for, read from empty properties and from the given ones (a reader
   * that reads some names only when others are set is given those). A reader that refuses the values
   * still reports what it read before refusing.
   */
  public static Set<String> namesReadBy(PropertyCatalog.SettingsReader reader, Properties... cases) {
    Set<String> names = new java.util.TreeSet<>();
    java.util.List<Properties> all = new java.util.ArrayList<>();
    all.add(new Properties());  // the defaults: what is read whatever is set
    all.addAll(java.util.Arrays.asList(cases));
    for (Properties values : all) {
      RecordingProperties recording = new RecordingProperties(values);
      try {
        reader.read(recording);
      } catch (ConfigException refused) {
        // what was read before the refusal is what we want
      }
      names.addAll(recording.namesRead());
    }
    return names;
  }
}
