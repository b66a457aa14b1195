package org.geoshard.harness.api;

import java.util.Set;

/**
 * Implemented by a workload that declares the data it loads (in a load) and reads (in a run), by
 * role. The harness hands the declaration to the binding's preparation ({@link Preparable}), so that
 * a binding prepares, drops and counts exactly that data, whatever the workload's class. A workload
 * that declares nothing (YCSB's own) loads {@link DataRole#KEY_VALUE}.
 */
public interface DeclaresData {
  /**
   * The roles of this workload's data. Answered without {@code init} (by {@code bin/ycsb prepare},
   * which loads no workload), so it must not depend on the workload's properties.
   */
  Set<DataRole> dataRoles();

  /** The roles the given workload declares, or {@link DataRole#KEY_VALUE} for one that declares none. */
  static Set<DataRole> of(Object workload) {
    if (workload instanceof DeclaresData declares) {
      Set<DataRole> roles = Set.copyOf(declares.dataRoles());
      if (roles.isEmpty()) {
        throw new IllegalStateException(workload.getClass().getName() + " declares no data roles.");
      }
      return roles;
    }
    return Set.of(DataRole.KEY_VALUE);
  }
}
