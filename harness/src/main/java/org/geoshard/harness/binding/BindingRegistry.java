package org.geoshard.harness.binding;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.Collections;
import java.util.Enumeration;
import java.util.Properties;
import java.util.SortedMap;
import java.util.TreeMap;
import org.geoshard.harness.config.ConfigException;
import site.ycsb.DB;

/**
 * Binding names ({@code basic}, {@code mongodb-geo}, ...) and their classes. Every module that ships
 * a binding lists it in its own {@value #RESOURCE} ({@code name=class}), so that adding a module adds
 * its names; a fully qualified class name of any {@code site.ycsb.DB} works as well.
 */
public final class BindingRegistry {
  public static final String RESOURCE = "META-INF/geoshard/bindings.properties";

  private final SortedMap<String, String> classesByName;
  private final ClassLoader loader;

  public BindingRegistry(SortedMap<String, String> classesByName, ClassLoader loader) {
    this.classesByName = Collections.unmodifiableSortedMap(new TreeMap<>(classesByName));
    this.loader = loader;
  }

  /** Reads every {@value #RESOURCE} on the class path. */
  public static BindingRegistry fromClassPath() {
    ClassLoader loader = BindingRegistry.class.getClassLoader();
    TreeMap<String, String> names = new TreeMap<>();
    try {
      Enumeration<URL> resources = loader.getResources(RESOURCE);
      while (resources.hasMoreElements()) {
        URL url = resources.nextElement();
        Properties entries = new Properties();
        try (InputStream in = url.openStream()) {
          entries.load(in);
        }
        for (String name : entries.stringPropertyNames()) {
          String previous = names.put(name, entries.getProperty(name).trim());
          if (previous != null && !previous.equals(names.get(name))) {
            throw new IllegalStateException("Binding name '" + name + "' is registered twice: " + previous
                + " and " + names.get(name) + " (" + url + ").");
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Could not read the binding registry " + RESOURCE, e);
    }
    return new BindingRegistry(names, loader);
  }

  public SortedMap<String, String> names() {
    return classesByName;
  }

  /** The binding for a registered name or a class name. */
  public Binding resolve(String nameOrClass) throws ConfigException {
    String className = classesByName.get(nameOrClass);
    boolean registered = className != null;
    if (!registered) {
      if (!nameOrClass.contains(".")) {
        throw new ConfigException("Unknown binding '" + nameOrClass + "': use one of " + String.join(", ", classesByName.keySet())
            + ", or the fully qualified class name of a site.ycsb.DB.");
      }
      className = nameOrClass;
    }
    Class<?> type;
    try {
      type = Class.forName(className, false, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      throw new ConfigException(registered
          ? "Binding '" + nameOrClass + "' is registered as " + className + ", but that class is not on the class path."
          : "Unknown binding '" + nameOrClass + "': no such class on the class path, and not a registered name ("
              + String.join(", ", classesByName.keySet()) + ").");
    }
    if (!DB.class.isAssignableFrom(type)) {
      throw new ConfigException("Binding '" + nameOrClass + "' (" + className + ") is not a site.ycsb.DB.");
    }
    return new Binding(registered ? nameOrClass : type.getSimpleName(), type.asSubclass(DB.class));
  }
}
