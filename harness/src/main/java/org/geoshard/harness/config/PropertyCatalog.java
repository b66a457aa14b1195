package org.geoshard.harness.config;

import java.util.Set;

/**
 * The property names a module owns, found with {@link java.util.ServiceLoader}. A name under one of
 * the {@link #prefixes()} that no catalog knows is a typo, and the harness refuses it before the run
 * starts (YCSB silently ignores it, and the user measures something other than intended).
 */
public interface PropertyCatalog {
  /** Prefixes this module owns, each ending with a dot, such as {@code "geo."}. */
  Set<String> prefixes();

  /** Every property name this module reads, including those outside its prefixes. */
  Set<String> names();
}
