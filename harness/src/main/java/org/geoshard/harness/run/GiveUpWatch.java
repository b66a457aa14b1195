package org.geoshard.harness.run;

import java.time.Duration;
import java.util.function.LongSupplier;
import org.geoshard.harness.measure.Interval;
import org.geoshard.harness.measure.IntervalListener;
import org.geoshard.harness.measure.IntervalSample;
import org.geoshard.harness.measure.Totals;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops a phase that no longer does anything: when nothing has succeeded for {@code giveup.s} seconds
 * while operations failed (a database that is gone) or waited on the server (a database that stalls:
 * a request may wait as long as its deadline, an hour in the study's scenarios), waiting longer only
 * adds errors or silence. A wait counts once the longest operation in progress has waited half of
 * {@code giveup.s}: a paced run's sparse operations, each just started, do not. Judged on the
 * intervals' own times. Operations that merely run slowly beside successes, or records a binding holds
 * in a batch, never trigger it.
 */
final class GiveUpWatch implements IntervalListener {
  private static final Logger LOG = LoggerFactory.getLogger(GiveUpWatch.class);

  private final long afterMs;
  private final LongSupplier longestWaitMs;
  private final Runnable giveUp;
  private long lastSuccessEpochMs;
  private long failedSince;
  private boolean fired;

  /** A watch that knows nothing of operations in progress: only failures count. */
  GiveUpWatch(Duration after, long startEpochMs, Runnable giveUp) {
    this(after, startEpochMs, () -> 0, giveUp);
  }

  /**
   * @param after how long without a success, with failures or waits, before giving up; zero never gives up
   * @param startEpochMs the start of the phase (a phase that never succeeds counts from there)
   * @param longestWaitMs how long the longest operation in progress has waited so far (0: none in progress)
   * @param giveUp called once, on the sampler's thread
   */
  GiveUpWatch(Duration after, long startEpochMs, LongSupplier longestWaitMs, Runnable giveUp) {
    this.afterMs = after.toMillis();
    this.lastSuccessEpochMs = startEpochMs;
    this.longestWaitMs = longestWaitMs;
    this.giveUp = giveUp;
  }

  @Override
  public void onInterval(Interval interval) {
    if (fired || afterMs == 0) {
      return;
    }
    if (interval.succeeded() > 0) {
      lastSuccessEpochMs = interval.endEpochMs();
      failedSince = 0;
      return;
    }
    failedSince += interval.samples().stream()
        .filter(s -> !Totals.CLEANUP.equals(s.operation())).mapToLong(IntervalSample::errors).sum();
    if (interval.endEpochMs() - lastSuccessEpochMs < afterMs) {
      return;
    }
    long waitedMs = failedSince > 0 ? 0 : longestWaitMs.getAsLong();
    if (failedSince > 0) {
      fired = true;
      LOG.error("Nothing has succeeded for {} s and {} operations failed in that time: giving up ({} = {}).",
          (interval.endEpochMs() - lastSuccessEpochMs) / 1000, failedSince, RunSettings.GIVE_UP, afterMs / 1000);
      giveUp.run();
    } else if (waitedMs >= afterMs / 2) {
      fired = true;
      LOG.error("Nothing has succeeded for {} s while operations waited on the server (the longest for {} s): giving"
          + " up ({} = {}).", (interval.endEpochMs() - lastSuccessEpochMs) / 1000, waitedMs / 1000, RunSettings.GIVE_UP,
          afterMs / 1000);
      giveUp.run();
    }
  }
}
