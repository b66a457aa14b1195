package org.geoshard.harness.api;

import java.util.Objects;
import java.util.Properties;
import java.util.Set;

/**
 * What the running workload loads and reads, as a binding needs it to prepare, count, describe and
 * serve the data: the roles ({@link DataRole}), YCSB's key-value table and the load's range of
 * record numbers. A binding reads these (and the facts a workload's {@code contract} package gives of
 * its roles), never the workload's class, settings or the {@code workload} property, so a new workload
 * that speaks an existing contract needs no binding change.
 *
 * @param roles the roles declared (never empty)
 * @param keyValueTable YCSB's {@code table} (default {@code usertable}): where {@link DataRole#KEY_VALUE} lives
 * @param insertStart the first record number this client loads ({@code insertstart}, default 0)
 * @param insertCount how many it loads ({@code insertcount}), or null for all the rest
 * @param expected how much data the scenario's whole dataset has ({@link ExpectedData#UNKNOWN} when the
 *     declaration was made without an initialised workload)
 */
public record DataDeclaration(Set<DataRole> roles, String keyValueTable, long insertStart, Long insertCount,
    ExpectedData expected) {
  public static final String TABLE = "table";
  public static final String INSERT_START = "insertstart";
  public static final String INSERT_COUNT = "insertcount";

  public DataDeclaration {
    roles = Set.copyOf(roles);
    if (roles.isEmpty()) {
      throw new IllegalArgumentException("A data declaration needs at least one role.");
    }
    Objects.requireNonNull(keyValueTable, "keyValueTable");
    expected = expected == null ? ExpectedData.UNKNOWN : expected;
  }

  /** A declaration without the dataset's size. */
  public DataDeclaration(Set<DataRole> roles, String keyValueTable, long insertStart, Long insertCount) {
    this(roles, keyValueTable, insertStart, insertCount, ExpectedData.UNKNOWN);
  }

  /** YCSB's key-value records only, with defaults: what a workload that declares nothing loads. */
  public static DataDeclaration keyValue() {
    return new DataDeclaration(Set.of(DataRole.KEY_VALUE), "usertable", 0, null);
  }

  /**
   * The declaration of the given workload (an instance, initialised or not) with the run's
   * properties: its roles ({@link DeclaresData}), and YCSB's table and load range.
   */
  public static DataDeclaration of(Object workload, Properties properties) {
    return new DataDeclaration(DeclaresData.of(workload), text(properties, TABLE, "usertable"),
        number(properties, INSERT_START, 0L), number(properties, INSERT_COUNT, null));
  }

  /**
   * The declaration of an initialised workload, with the size of its whole dataset ({@link KnowsDatasetSize},
   * or YCSB's {@code recordcount} for its own workloads): what a run and {@code bin/ycsb preflight} hand
   * the binding.
   */
  public static DataDeclaration ofInitialised(Object workload, Properties properties) {
    DataDeclaration d = of(workload, properties);
    return new DataDeclaration(d.roles, d.keyValueTable, d.insertStart, d.insertCount,
        ExpectedData.of(workload, properties));
  }

  public boolean declares(DataRole role) {
    return roles.contains(role);
  }

  /** True when this client loads a part of the data ({@code insertstart} or {@code insertcount} set). */
  public boolean loadsAPart() {
    return insertStart > 0 || insertCount != null;
  }

  private static String text(Properties properties, String name, String otherwise) {
    String value = properties.getProperty(name);
    return value == null || value.isBlank() ? otherwise : value.trim();
  }

  private static Long number(Properties properties, String name, Long otherwise) {
    String value = properties.getProperty(name);
    try {
      return value == null || value.isBlank() ? otherwise : Long.valueOf(value.trim().replace("_", ""));
    } catch (NumberFormatException e) {
      return otherwise;  // the harness's settings refuse it before anything starts
    }
  }
}
