package org.geoshard.harness.api;

import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import site.ycsb.DB;
import site.ycsb.Status;

/**
 * What a workload gets from the harness in place of YCSB's {@code DB}: the binding's own contracts
 * (interfaces beyond YCSB's five operations, such as a geo near query) and the one way to measure
 * such an operation under its own name.
 *
 * <p>YCSB's {@code Client} hides the binding behind {@code DBWrapper}; the geoshard harness passes
 * a {@code DB} that also implements this interface. Workloads reach it with {@link #from(DB)}.
 */
public interface HarnessDB {

  /** The binding as {@code contract} if it implements it. */
  <C> Optional<C> contract(Class<C> contract);

  /**
   * Runs {@code call}, records its latency under {@code operation} (upper snake case, e.g.
   * {@code GEO_NEAR}) and counts it as an error unless it returns an OK status. An exception thrown
   * by the call is counted as an error and returned as {@link Status#ERROR}, never propagated.
   */
  Status measure(String operation, Supplier<Status> call);

  /**
   * Like {@link #measure(String, Supplier)}, but the operation name and whether it failed follow from
   * the call's status ({@code classify} also receives {@link Status#ERROR} when the call threw).
   */
  Status measure(Supplier<Status> call, Function<Status, Outcome> classify);

  /**
   * The harness's view of {@code db}.
   *
   * @throws IllegalStateException when the workload runs outside the geoshard harness
   */
  static HarnessDB from(DB db) {
    if (db instanceof HarnessDB harnessDb) {
      return harnessDb;
    }
    throw new IllegalStateException("This workload needs the geoshard harness (bin/ycsb): it was handed a "
        + db.getClass().getName() + ", which does not give access to the binding's contracts.");
  }

  /** Like {@link #contract(Class)}, failing with a message that names the binding and the contract. */
  default <C> C require(Class<C> contract) {
    return contract(contract).orElseThrow(() -> new IllegalStateException(
        "The binding does not implement " + contract.getSimpleName() + ", which this workload needs."));
  }
}
