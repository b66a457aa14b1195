package org.geoshard.harness.api;

import java.util.Map;
import java.util.Properties;

/**
 * How much data the scenario's own dataset has, per role, as a complete load writes it (every client's
 * slice together): what a binding compares its server's count with before a run. Made by the harness
 * from the workload ({@link KnowsDatasetSize}, or YCSB's {@code recordcount} for its
 * {@code CoreWorkload}); bindings read it from {@link DataDeclaration#expected()}.
 *
 * @param records records per role after a complete load; a role absent is not known
 * @param lowerBound a run of this scenario adds records (inserts or upserts): after one, the server may hold more
 * @param runOnlyInserts a run of this scenario needs nothing loaded (it only inserts, or reads only what its own
 *     writers add: {@link KnowsDatasetSize#runReadsLoadedData()}), so it may start on empty data
 */
public record ExpectedData(Map<DataRole, Long> records, boolean lowerBound, boolean runOnlyInserts) {
  /** Nothing known (a workload that cannot say, or a declaration made without an initialised workload). */
  public static final ExpectedData UNKNOWN = new ExpectedData(Map.of(), false, false);

  public ExpectedData {
    records = Map.copyOf(records);
  }

  /** The expected records of the role, or null when not known. */
  public Long of(DataRole role) {
    return records.get(role);
  }

  /** The same, with the count a lower bound (e.g. a binding that appends to what is there). */
  public ExpectedData asLowerBound() {
    return new ExpectedData(records, true, runOnlyInserts);
  }

  /** What the initialised workload says of its dataset; YCSB's counts for a workload that says nothing. */
  static ExpectedData of(Object workload, Properties properties) {
    if (workload instanceof KnowsDatasetSize knows) {
      return new ExpectedData(knows.datasetSize(), knows.runAddsRecords(), !knows.runReadsLoadedData());
    }
    if (workload == null || workload instanceof DeclaresData) {
      return UNKNOWN;
    }
    return ycsb(properties);
  }

  /**
   * YCSB's {@code CoreWorkload}: {@code recordcount} records (unknown when unset: YCSB then takes
   * "as many as there are"); a run with {@code insertproportion} above 0 adds records, and one with
   * nothing but inserts reads nothing loaded. Proportions with YCSB 0.17.0's defaults.
   */
  static ExpectedData ycsb(Properties properties) {
    Long records = number(properties, "recordcount");
    double insert = proportion(properties, "insertproportion", 0);
    double others = proportion(properties, "readproportion", 0.95) + proportion(properties, "updateproportion", 0.05)
        + proportion(properties, "scanproportion", 0) + proportion(properties, "readmodifywriteproportion", 0);
    return new ExpectedData(records == null ? Map.of() : Map.of(DataRole.KEY_VALUE, records), insert > 0,
        insert > 0 && others == 0);
  }

  /**
   * The sentence with which a run that reads loaded data refuses an empty collection or table (and
   * {@code bin/ycsb preflight} fails): one source for both.
   *
   * @param place what is empty, e.g. "Collection ycsb.restaurants at mongodb://host/ycsb"
   */
  public static String emptyBeforeRun(String place) {
    return place + " holds no records, and this run reads loaded data: load it first (bin/ycsb load with the same "
        + "properties), or check the table, collection or URL.";
  }

  /**
   * The preflight check of a count read from the server against this expectation.
   *
   * @param name the check's name
   * @param place what was counted, e.g. "ycsb.restaurants"
   * @param unit "documents" or "rows"
   * @param found the count read from the server
   */
  public Preflight.Check countCheck(String name, String place, DataRole role, String unit, long found,
      Preflight.Before before) {
    Long expected = of(role);
    String holds = place + " holds " + String.format("%,d", found) + " " + unit;
    if (found == 0) {
      if (before == Preflight.Before.LOAD) {
        return Preflight.Check.ok(name, place + " is empty or absent: a load fills it"
            + (expected == null ? "" : " (" + String.format("%,d", expected) + " " + unit + ")"));
      }
      if (runOnlyInserts) {
        return Preflight.Check.ok(name, place + " is empty or absent: this run only inserts");
      }
      return Preflight.Check.fail(name, emptyBeforeRun(place));
    }
    if (expected == null) {
      return Preflight.Check.warn(name, holds + "; the scenario's dataset size is not known (e.g. recordcount unset)");
    }
    String dataset = String.format("%,d", expected);
    if (before == Preflight.Before.LOAD) {
      return Preflight.Check.warn(name, holds + " before the load (the dataset has " + dataset
          + "): a load adds to them, unless it drops them first or loads another part");
    }
    if (lowerBound) {
      return found >= expected ? Preflight.Check.ok(name, holds + " (at least " + dataset
          + " expected: the scenario's runs add to the loaded data, so this is a lower bound)")
          : Preflight.Check.fail(name, holds + ", but the scenario's dataset has at least " + dataset
              + ": load it completely with the same properties (a split load's parts add up to it)");
    }
    return found == expected ? Preflight.Check.ok(name, holds + " (the scenario's dataset: " + dataset + ")")
        : Preflight.Check.fail(name, holds + ", but the scenario's dataset has exactly " + dataset
            + ": the data was loaded with other properties (e.g. geo.scale, recordcount) or not completely");
  }

  private static Long number(Properties properties, String name) {
    String value = properties.getProperty(name);
    try {
      return value == null || value.isBlank() ? null : Long.valueOf(value.trim().replace("_", ""));
    } catch (NumberFormatException e) {
      return null;  // the harness's settings refuse it before anything starts
    }
  }

  private static double proportion(Properties properties, String name, double otherwise) {
    String value = properties.getProperty(name);
    try {
      return value == null || value.isBlank() ? otherwise : Double.parseDouble(value.trim());
    } catch (NumberFormatException e) {
      return otherwise;  // CoreWorkload refuses it
    }
  }
}
