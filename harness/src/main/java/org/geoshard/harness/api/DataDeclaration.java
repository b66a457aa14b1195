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
 */
public record DataDeclaration(Set<DataRole> roles, String keyValueTable, long insertStart, Long insertCount) {
  public static final String TABLE = "table";
  public static final String INSERT_START = "insertstart";
  public static final String INSERT_COUNT = "insertcount";

  public DataDeclaration {
    roles = Set.copyOf(roles);
    if (roles.isEmpty()) {
      throw new IllegalArgumentException("A data declaration needs at least one role.");
    }
    Objects.requireNonNull(keyValueTable, "keyValueTable");
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
