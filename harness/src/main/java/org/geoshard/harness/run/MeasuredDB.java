package org.geoshard.harness.run;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import org.geoshard.harness.api.BatchOutcomes;
import org.geoshard.harness.api.ExplainsOperations;
import org.geoshard.harness.api.FailureLog;
import org.geoshard.harness.api.Outcome;
import org.geoshard.harness.api.HarnessDB;
import org.geoshard.harness.api.RetryWait;
import org.geoshard.harness.measure.Meters;
import org.geoshard.harness.measure.OperationMeter;
import org.geoshard.harness.measure.Totals;
import org.geoshard.harness.observe.ExplainSampler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * The {@code DB} that one client thread hands to the workload: it times every call to the binding
 * under the operation's name and gives workloads the binding's contracts (see {@link HarnessDB}).
 *
 * <p>One instance per thread, used by that thread only. With {@code measurementtype=none} calls go
 * straight through, which is how the harness's own overhead is measured.
 */
final class MeasuredDB extends DB implements HarnessDB {
  private static final Logger LOG = LoggerFactory.getLogger(MeasuredDB.class);
  private final DB binding;
  private final Meters meters;
  private final int stripe;
  private final boolean measured;
  private final boolean fromIntendedTime;
  private final FailureLog errors;
  /** The clock of every latency (the system's in a run; a test's own to place an abandon exactly). */
  private final Ticker ticker;
  private final OperationMeter read;
  private final OperationMeter scan;
  private final OperationMeter update;
  private final OperationMeter insert;
  private final OperationMeter delete;
  /** Records the binding buffered and has not settled; null when the binding does not report batches. */
  private final BatchLedger batches;
  /** When the schedule wanted the current operation to start (0 when not throttled). Owner thread only. */
  private long intendedStartNanos;
  /**
   * The start of the operation in progress, 0 when none: whoever takes it (the owner when the call
   * returns, the runner when the call outlived the stop) records that operation, so it is counted once.
   * The owner publishes it with a release store, not a volatile one: a full fence per operation is one of
   * the few costs every client thread pays on every call, and the runner only needs to see the meter
   * written before it (release/acquire) and to race for it with a CAS.
   */
  private final AtomicLong inFlightSince = new AtomicLong();
  /**
   * The meter of the operation in progress (or null with {@link #inFlightClassify}). Plain fields: they are
   * written before the release store of {@link #inFlightSince} and read after its acquire load.
   */
  private OperationMeter inFlightMeter;
  private Function<Status, Outcome> inFlightClassify;
  /** Explains a few of this thread's operations (null when off or the binding cannot explain). */
  private ExplainSampler explainer;
  /** Measured calls in progress on the owner thread (nested ones included). Owner thread only. */
  private int depth;

  MeasuredDB(DB binding, Meters meters, int threadId, boolean measured, MeasurementInterval interval,
      FailureLog errors, Ticker ticker) {
    this.ticker = ticker;
    this.binding = binding;
    this.meters = meters;
    this.stripe = threadId;
    this.measured = measured;
    this.fromIntendedTime = interval == MeasurementInterval.INTENDED;
    this.errors = errors;
    this.read = meters.meter("READ");
    this.scan = meters.meter("SCAN");
    this.update = meters.meter("UPDATE");
    this.insert = meters.meter("INSERT");
    this.delete = meters.meter("DELETE");
    if (binding instanceof BatchOutcomes reporting) {
      // Unmeasured runs count nothing, but the binding still gets a listener to call.
      this.batches = measured ? new BatchLedger(meters, threadId) : null;
      reporting.batchOutcomeListener(measured ? batches : (operation, ok, failed) -> { });
    } else {
      this.batches = null;
    }
  }

  DB binding() {
    return binding;
  }

  /** Explains some of this thread's successful operations with the binding's {@link ExplainsOperations}. */
  void explainer(ExplainSampler sampler) {
    this.explainer = binding instanceof ExplainsOperations ? sampler : null;
  }

  void intendedStart(long nanos) {
    this.intendedStartNanos = nanos;
  }

  @Override
  public void setProperties(Properties p) {
    binding.setProperties(p);
  }

  @Override
  public Properties getProperties() {
    return binding.getProperties();
  }

  @Override
  public void init() throws DBException {
    binding.init();
  }

  /**
   * Cleans the binding up (a batching binding flushes here), measured as {@code CLEANUP}. Records the
   * binding buffered and never settled are counted as errors then: nothing says they were written.
   */
  @Override
  public void cleanup() throws DBException {
    long start = ticker.nanoTime();
    boolean ok = false;
    try {
      binding.cleanup();
      ok = true;
    } finally {
      if (measured) {
        meters.meter(Totals.CLEANUP).record(stripe, (ticker.nanoTime() - start) / 1000, ok);
      }
      if (batches != null) {
        long[] left = batches.abandon();
        if (left[0] > 0) {
          LOG.warn("Thread {}: {} buffered records were never reported written by the binding; counted as errors.",
              stripe, left[0]);
        }
        if (left[1] > 0) {
          LOG.warn("Thread {}: the binding reported {} more batched records than it buffered; they are not counted.",
              stripe, left[1]);
        }
      }
    }
  }

  @Override
  public <C> Optional<C> contract(Class<C> contract) {
    return contract.isInstance(binding) ? Optional.of(contract.cast(binding)) : Optional.empty();
  }

  @Override
  public Status measure(String operation, Supplier<Status> call) {
    if (!measured) {
      return unmeasured(operation, call);
    }
    OperationMeter meter = meters.meter(operation);
    long waited = RetryWait.waitedNanos();
    long start = begin(meter, null);
    Status status;
    try {
      status = call.get();
    } catch (RuntimeException e) {
      status = failed(operation, e);
    }
    finish(meter, start, waited, status);
    offerExplain(operation, status);
    return status;
  }

  /** After a successful outermost query, outside its measured time: maybe explained. */
  private void offerExplain(String operation, Status status) {
    if (explainer != null && depth == 0 && status.isOk()) {
      explainer.offer(operation, (ExplainsOperations) binding);
    }
  }

  @Override
  public Status measure(Supplier<Status> call, Function<Status, Outcome> classify) {
    long waited = measured ? RetryWait.waitedNanos() : 0;
    long start = measured ? begin(null, classify) : 0;
    Status status;
    try {
      status = call.get();
    } catch (RuntimeException e) {
      status = failed("a measured call", e);
    }
    if (measured && end(start)) {
      Outcome outcome = classify.apply(status);
      long micros = latencyMicros(start, waited);
      if (status == Status.BATCHED_OK && batches != null) {
        batches.buffered(outcome.operation(), micros);
      } else {
        OperationMeter meter = meters.meter(outcome.operation());
        meter.record(stripe, micros, outcome.ok());
        if (!outcome.ok() && Status.NOT_FOUND.equals(status)) {
          meter.countNotFound();
        }
      }
    }
    return status;
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    long waited = measured ? RetryWait.waitedNanos() : 0;
    long start = measured ? begin(read, null) : 0;
    Status status;
    try {
      status = binding.read(table, key, fields, result);
    } catch (RuntimeException e) {
      status = failed("READ", e);
    }
    finish(read, start, waited, status);
    offerExplain("READ", status);
    return status;
  }

  @Override
  public Status scan(String table, String startKey, int count, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    long waited = measured ? RetryWait.waitedNanos() : 0;
    long start = measured ? begin(scan, null) : 0;
    Status status;
    try {
      status = binding.scan(table, startKey, count, fields, result);
    } catch (RuntimeException e) {
      status = failed("SCAN", e);
    }
    finish(scan, start, waited, status);
    offerExplain("SCAN", status);
    return status;
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    long waited = measured ? RetryWait.waitedNanos() : 0;
    long start = measured ? begin(update, null) : 0;
    Status status;
    try {
      status = binding.update(table, key, values);
    } catch (RuntimeException e) {
      status = failed("UPDATE", e);
    }
    finish(update, start, waited, status);
    return status;
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    long waited = measured ? RetryWait.waitedNanos() : 0;
    long start = measured ? begin(insert, null) : 0;
    Status status;
    try {
      status = binding.insert(table, key, values);
    } catch (RuntimeException e) {
      status = failed("INSERT", e);
    }
    finish(insert, start, waited, status);
    return status;
  }

  @Override
  public Status delete(String table, String key) {
    long waited = measured ? RetryWait.waitedNanos() : 0;
    long start = measured ? begin(delete, null) : 0;
    Status status;
    try {
      status = binding.delete(table, key);
    } catch (RuntimeException e) {
      status = failed("DELETE", e);
    }
    finish(delete, start, waited, status);
    return status;
  }

  private Status unmeasured(String operation, Supplier<Status> call) {
    try {
      return call.get();
    } catch (RuntimeException e) {
      return failed(operation, e);
    }
  }

  /**
   * The start of a latency: the intended start for the first call of a paced operation, then the
   * actual start (a workload that makes two calls per operation, such as an append and an upsert,
   * would otherwise charge the first call's time to the second).
   */
  private long startNanos() {
    if (fromIntendedTime && intendedStartNanos != 0) {
      long intended = intendedStartNanos;
      intendedStartNanos = 0;
      return intended;
    }
    return ticker.nanoTime();
  }

  /** Marks an operation as in progress; its start. */
  private long begin(OperationMeter meter, Function<Status, Outcome> classify) {
    long start = startNanos();
    if (depth++ == 0) {  // a call measured inside another is part of it: only the outermost is tracked
      inFlightMeter = meter;
      inFlightClassify = classify;
      inFlightSince.setRelease(start == 0 ? 1 : start);
    }
    return start;
  }

  /** True when the owner may record the operation (false: the runner already counted it as abandoned). */
  private boolean end(long start) {
    return --depth > 0 || inFlightSince.compareAndSet(start == 0 ? 1 : start, 0);
  }

  /** The latency of a call begun at {@code startNanos}, less the time the binding waited to retry in it. */
  private long latencyMicros(long startNanos, long waitedBefore) {
    return (ticker.nanoTime() - startNanos - (RetryWait.waitedNanos() - waitedBefore)) / 1000;
  }

  /** Counts the call, except a buffered record of a binding that reports batches: its batch will. */
  private void finish(OperationMeter meter, long startNanos, long waitedBefore, Status status) {
    if (measured && end(startNanos)) {
      long micros = latencyMicros(startNanos, waitedBefore);
      if (status == Status.BATCHED_OK && batches != null) {
        batches.buffered(meter.name(), micros);
      } else {
        meter.record(stripe, micros, status != null && status.isOk());
        if (Status.NOT_FOUND.equals(status)) {
          meter.countNotFound();
        }
      }
    }
  }

  /** When the operation in progress began (on the {@link Ticker}), or 0 when none is. */
  long operationStartNanos() {
    return inFlightSince.getAcquire();
  }

  /**
   * Counts the records this instance buffered and no batch settled as errors, now (its thread outlived
   * the stop's grace, perhaps flushing to a server that is gone): the run's counts are read before that
   * thread ends, and every record handed to the binding must be in them. Returns how many.
   */
  long abandonBuffered() {
    return batches == null ? 0 : batches.abandon()[0];
  }

  /**
   * Counts the operation in progress, if any, as an error of its operation with the time it has taken
   * so far (called by the runner for a thread still inside an operation after the stop's grace: a
   * request that never ends is a failed request, not a missing one). If the operation ends later, it is
   * not counted again. True when there was one.
   */
  boolean abandonInFlight() {
    long start = inFlightSince.get();
    // Read before the CAS: once it succeeds the owner may already be writing its next operation's.
    OperationMeter meter = inFlightMeter;
    Function<Status, Outcome> classify = inFlightClassify;
    if (start == 0 || !inFlightSince.compareAndSet(start, 0)) {
      return false;
    }
    if (meter == null) {
      meter = meters.meter(classify == null ? "UNKNOWN" : classify.apply(Status.ERROR).operation());
    }
    meter.record(stripe, (ticker.nanoTime() - start) / 1000, false);
    return true;
  }

  private Status failed(String operation, RuntimeException e) {
    errors.failed(operation + " (an exception out of the binding, counted as an error)", e.toString(), e);
    return Status.ERROR;
  }
}
