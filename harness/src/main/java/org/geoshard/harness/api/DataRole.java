package org.geoshard.harness.api;

import java.util.Objects;

/**
 * One kind of data a workload loads and reads, named by the contract it is reached through (for
 * example the geo contract's restaurants, or the last-location contract's History). A binding maps
 * each role to collections or tables of its own; preparation, drops and counts touch only the roles a
 * workload declares ({@link DeclaresData}), never another workload's data.
 *
 * @param name what the role is called in logs and {@code run.json} (for example "geo restaurants")
 */
public record DataRole(String name) {
  /**
   * YCSB's key-value records ({@code insert}, {@code read}, {@code update}, {@code scan},
   * {@code delete}) in the table named by YCSB's {@code table} property: what a workload that declares
   * nothing (YCSB's {@code CoreWorkload}) loads.
   */
  public static final DataRole KEY_VALUE = new DataRole("ycsb key-value records");

  public DataRole {
    Objects.requireNonNull(name, "name");
    if (name.isBlank()) {
      throw new IllegalArgumentException("A data role needs a name.");
    }
  }

  @Override
  public String toString() {
    return name;
  }
}
